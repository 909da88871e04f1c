import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { SignInRateLimiter } from './sign-in-rate-limit.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/1', { maxRetriesPerRequest: 1 });
const prefix = `test-sign-in-${randomUUID()}`;

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const LIMIT = 3;

const limiter = (windowSeconds = 60) =>
  new SignInRateLimiter(redis, `${prefix}:${randomUUID()}`, { maxFailures: LIMIT, windowSeconds });

const email = () => `user-${randomUUID()}@example.org`;

/** `count` failed attempts, one after the other. */
async function fail(limits: SignInRateLimiter, count: number, who: () => [string, string]): Promise<void> {
  for (let attempt = 0; attempt < count; attempt += 1) {
    const [target, address] = who();
    expect(await limits.attempt(target, address)).toBeNull();
  }
}

describe('sign-in rate limiter (Redis)', () => {
  it('blocks an email after the limit, from any address, until the window ends', async () => {
    const limits = limiter();
    const target = email();
    const addresses = ['10.0.0.1', '10.0.0.2', '10.0.0.3'];
    await fail(limits, LIMIT, () => [target, addresses.pop() ?? '']);
    const blocked = await limits.attempt(target.toUpperCase(), '10.0.0.99');
    expect(blocked?.retryAfterSeconds).toBeGreaterThan(0);
    expect(blocked?.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await limits.attempt(email(), '10.0.0.99')).toBeNull();
  });

  it('blocks an address after the limit, for every email', async () => {
    const limits = limiter();
    await fail(limits, LIMIT, () => [email(), '192.0.2.7']);
    expect(await limits.attempt(email(), '192.0.2.7')).not.toBeNull();
    expect(await limits.attempt(email(), '192.0.2.8')).toBeNull();
  });

  it('lets at most the limit through when attempts arrive in parallel', async () => {
    const limits = limiter();
    const target = email();
    // Each attempt is counted before its (slow) password check, so none passes on a stale count.
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        const refusal = await limits.attempt(target, `198.18.0.${index}`);
        await sleep(50);
        return refusal;
      }),
    );
    expect(outcomes.filter((outcome) => outcome === null)).toHaveLength(LIMIT);
    for (const refusal of outcomes.filter((outcome) => outcome !== null)) {
      expect(refusal.retryAfterSeconds).toBeGreaterThan(0);
    }
    const sharedAddress = await Promise.all(
      Array.from({ length: 40 }, () => limits.attempt(email(), '198.18.1.1')),
    );
    expect(sharedAddress.filter((outcome) => outcome === null)).toHaveLength(LIMIT);
  });

  it('counts a refused attempt nowhere: a blocked address cannot lock other emails out', async () => {
    const limits = limiter();
    await fail(limits, LIMIT, () => [email(), '203.0.113.50']);
    const victim = email();
    for (let attempt = 0; attempt < 2 * LIMIT; attempt += 1) {
      expect(await limits.attempt(victim, '203.0.113.50')).not.toBeNull();
    }
    expect(await limits.attempt(victim, '203.0.113.51')).toBeNull();
  });

  it("clears the email's count on success and gives the address back the success's own count", async () => {
    const limits = limiter();
    const target = email();
    await fail(limits, 2, () => [target, '198.51.100.1']);
    // Signing in, right password: the email starts again; the address keeps its two failures.
    expect(await limits.attempt(target, '198.51.100.1')).toBeNull();
    await limits.succeeded(target, '198.51.100.1');
    await fail(limits, 2, () => [target, '198.51.100.2']);
    expect(await limits.attempt(target, '198.51.100.4')).toBeNull();
    expect(await limits.attempt(email(), '198.51.100.1')).toBeNull();
    expect(await limits.attempt(email(), '198.51.100.1')).not.toBeNull();
  });

  it('lets people sign in from one address any number of times', async () => {
    const limits = limiter();
    for (let attempt = 0; attempt < 4 * LIMIT; attempt += 1) {
      const target = email();
      expect(await limits.attempt(target, '192.0.2.200')).toBeNull();
      await limits.succeeded(target, '192.0.2.200');
    }
  });

  it('opens the window at the first failure and lets it end without extending it', async () => {
    const limits = limiter(1);
    const target = email();
    await fail(limits, LIMIT, () => [target, '203.0.113.1']);
    expect(await limits.attempt(target, '203.0.113.1')).toEqual({ retryAfterSeconds: 1 });
    const deadline = Date.now() + 5_000;
    // Redis expires the counters; poll for it rather than sleep a guessed time.
    while ((await limits.attempt(target, '203.0.113.1')) !== null) {
      if (Date.now() > deadline) throw new Error('the window never ended');
      await sleep(50);
    }
  });
});
