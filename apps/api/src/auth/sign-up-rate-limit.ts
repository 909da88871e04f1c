import type { Redis } from 'ioredis';
import { AttemptCounter, type Refusal } from './attempt-counter.js';
import { sha256Hex } from './secrets.js';

export interface SignUpLimits {
  readonly maxPerAddress: number;
  readonly windowSeconds: number;
}

/**
 * Limits sign-ups per client address in fixed windows in Redis. A sign-up costs a 32 MiB scrypt hash and
 * creates a user and an organization, so every attempt counts (made, refused as a duplicate, or failed),
 * before the hash is computed.
 */
export class SignUpRateLimiter {
  private readonly counter: AttemptCounter;

  constructor(
    redis: Redis,
    /** Keeps deployments (and test stacks) sharing one Redis apart. */
    private readonly keyPrefix: string,
    limits: SignUpLimits,
  ) {
    this.counter = new AttemptCounter(redis, {
      max: limits.maxPerAddress,
      windowSeconds: limits.windowSeconds,
    });
  }

  /** `null` when the sign-up may go ahead (and is counted); a refused one counts nothing. */
  async attempt(address: string): Promise<Refusal | null> {
    return this.counter.take([`${this.keyPrefix}:sign-up:address:${sha256Hex(address)}`]);
  }
}
