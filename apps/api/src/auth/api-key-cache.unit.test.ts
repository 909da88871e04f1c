import { describe, expect, it } from 'vitest';
import { ApiKeyCache } from './api-key-cache.js';
import type { AuthenticatedApiKey } from './api-key-store.js';

function usableKey(expiresAt: Date | null = null): AuthenticatedApiKey {
  return {
    id: 'key-1',
    orgId: 'org-1',
    keyRole: 'editor',
    userId: 'user-1',
    email: 'pipeline@example.org',
    name: null,
    creatorRole: 'owner',
    expiresAt,
  };
}

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

describe('the API key cache', () => {
  it('answers a stored key until it is ten seconds old', () => {
    const time = clock();
    const cache = new ApiKeyCache(time.now);
    cache.store('digest', usableKey(), cache.ticket());
    time.advance(9_999);
    expect(cache.get('digest')).toEqual(usableKey());
    time.advance(1);
    expect(cache.get('digest')).toBeUndefined();
  });

  it('never answers a key past its own expiry', () => {
    const time = clock();
    const cache = new ApiKeyCache(time.now);
    cache.store('digest', usableKey(new Date(time.now() + 500)), cache.ticket());
    expect(cache.get('digest')).toBeDefined();
    time.advance(500);
    expect(cache.get('digest')).toBeUndefined();
  });

  it('forgets everything on clear, and drops an answer read before the clear', () => {
    const cache = new ApiKeyCache();
    cache.store('a', usableKey(), cache.ticket());
    const inFlight = cache.ticket();
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
    cache.store('b', usableKey(), inFlight);
    expect(cache.get('b')).toBeUndefined();
    cache.store('b', usableKey(), cache.ticket());
    expect(cache.get('b')).toBeDefined();
  });

  it('keeps at most ten thousand keys, dropping the oldest', () => {
    const cache = new ApiKeyCache();
    for (let index = 0; index <= 10_000; index += 1) cache.store(`d${index}`, usableKey(), cache.ticket());
    expect(cache.get('d0')).toBeUndefined();
    expect(cache.get('d1')).toBeDefined();
    expect(cache.get('d10000')).toBeDefined();
  });
});
