import type { Redis } from 'ioredis';
import { AttemptCounter, type Refusal } from './attempt-counter.js';
import { sha256Hex } from './secrets.js';

export interface SignInLimits {
  readonly maxFailures: number;
  readonly windowSeconds: number;
}

/**
 * Limits failed sign-ins per email and per client address in fixed windows in Redis. Each attempt is
 * counted on both before its password is checked (scrypt takes ~100 ms: counting afterwards let parallel
 * guesses all pass the check), and refused while either count is at the limit, whether or not its
 * password is right, so guessing gains nothing by going on. A success takes its count back: it clears
 * the email's count (its owner knows the password) and gives the address back the one it took, so the
 * counts are of failures (and attempts still running), never of people signing in.
 */
export class SignInRateLimiter {
  private readonly counter: AttemptCounter;

  constructor(
    redis: Redis,
    /** Keeps deployments (and test stacks) sharing one Redis apart. */
    private readonly keyPrefix: string,
    limits: SignInLimits,
  ) {
    this.counter = new AttemptCounter(redis, {
      max: limits.maxFailures,
      windowSeconds: limits.windowSeconds,
    });
  }

  private keys(email: string, address: string): [string, string] {
    // Digests: keys must not put addresses people typed into Redis, nor let an email shape a key.
    return [
      `${this.keyPrefix}:sign-in:email:${sha256Hex(email.toLowerCase())}`,
      `${this.keyPrefix}:sign-in:address:${sha256Hex(address)}`,
    ];
  }

  /** Counts the attempt as a failure until `succeeded` says otherwise; `null` when it may go ahead. */
  async attempt(email: string, address: string): Promise<Refusal | null> {
    return this.counter.take(this.keys(email, address));
  }

  /** The attempt counted by `attempt` signed in. */
  async succeeded(email: string, address: string): Promise<void> {
    const [emailKey, addressKey] = this.keys(email, address);
    await Promise.all([this.counter.clear(emailKey), this.counter.giveBack(addressKey)]);
  }
}
