import { describe, expect, it } from 'vitest';
import { advisoryLockKey } from './advisory-lock-key.js';

describe('advisoryLockKey', () => {
  it('is the same key on every run and machine, so instances agree on who leads', () => {
    // Pinned: changing the hash would let an old and a new projector both lead during a rolling deploy.
    expect(advisoryLockKey('projection:portal:read')).toEqual({ namespace: 0x50524a54, id: 830028378 });
  });

  it('gives different names different keys within the int4 range PostgreSQL takes', () => {
    const names = [
      'projection:portal:read',
      'projection:portal:read_t1',
      'rebuild:portal:read',
      'schema:read',
    ];
    const ids = names.map((name) => advisoryLockKey(name).id);
    expect(new Set(ids).size).toBe(names.length);
    for (const id of ids) {
      expect(Number.isInteger(id)).toBe(true);
      expect(id).toBeGreaterThanOrEqual(-(2 ** 31));
      expect(id).toBeLessThan(2 ** 31);
    }
  });
});
