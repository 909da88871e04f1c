import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { SignUpRateLimiter } from './sign-up-rate-limit.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/1', { maxRetriesPerRequest: 1 });
const prefix = `test-sign-up-${randomUUID()}`;

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const limiter = (maxPerAddress: number) =>
  new SignUpRateLimiter(redis, `${prefix}:${randomUUID()}`, { maxPerAddress, windowSeconds: 60 });

describe('sign-up rate limiter (Redis)', () => {
  it('lets an address sign up the limit in a window, then refuses with the time left', async () => {
    const limits = limiter(2);
    expect(await limits.attempt('192.0.2.1')).toBeNull();
    expect(await limits.attempt('192.0.2.1')).toBeNull();
    const refused = await limits.attempt('192.0.2.1');
    expect(refused?.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused?.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await limits.attempt('192.0.2.2')).toBeNull();
  });

  it('lets at most the limit through when sign-ups arrive in parallel', async () => {
    const limits = limiter(5);
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => limits.attempt('198.51.100.9')));
    expect(outcomes.filter((outcome) => outcome === null)).toHaveLength(5);
  });
});
