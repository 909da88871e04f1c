import type { Redis } from 'ioredis';

export interface WindowLimits {
  /** Attempts a key may count within one window. */
  readonly max: number;
  readonly windowSeconds: number;
}

/** A refused attempt: how long until the window that refused it ends. */
export interface Refusal {
  readonly retryAfterSeconds: number;
}

/**
 * Refuses (returning the milliseconds left in the longest full window) when any key is at the limit,
 * and counts nothing then; otherwise counts one attempt on every key. The first count opens a key's
 * window; later ones never extend it (EXPIRE … NX, Redis 7). A counter left without an expiry would
 * refuse for ever, so it gets a window when found.
 */
const TAKE_SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local wait = 0
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= limit then
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then
      redis.call('EXPIRE', key, window)
      ttl = window * 1000
    end
    wait = math.max(wait, ttl, 1)
  end
end
if wait > 0 then return wait end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('EXPIRE', key, window, 'NX')
end
return 0
`;

/** Takes one count back; never below zero, and never makes a key (or a key without expiry) again. */
const GIVE_BACK_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

/**
 * Fixed-window attempt counters in Redis. An attempt is counted BEFORE the work it guards (a password
 * check, a sign-up), in one script, so attempts running in parallel cannot all pass a check that none of
 * them has counted yet: at most `max` attempts per key and window get through, however many arrive at
 * once. A refused attempt counts nothing, so a client that is refused by one key (its address) cannot
 * use the refusals to fill another (someone's email).
 */
export class AttemptCounter {
  constructor(
    private readonly redis: Redis,
    private readonly limits: WindowLimits,
  ) {}

  /** Counts the attempt on every key at once; `null` when it may go ahead. */
  async take(keys: readonly string[]): Promise<Refusal | null> {
    const waitMs = Number(
      await this.redis.eval(TAKE_SCRIPT, keys.length, ...keys, this.limits.max, this.limits.windowSeconds),
    );
    return waitMs > 0 ? { retryAfterSeconds: Math.ceil(waitMs / 1000) } : null;
  }

  /** Undoes one counted attempt that turned out not to count (a sign-in that succeeded). */
  async giveBack(key: string): Promise<void> {
    await this.redis.eval(GIVE_BACK_SCRIPT, 1, key);
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(key);
  }
}
