/** How often a command without an expected revision is tried again after a concurrent append. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** Pause in milliseconds after `failed` attempts lost to another writer, before the next one. */
  readonly pauseMs: (failed: number) => number;
}

/**
 * The default: twenty attempts, each after a short pause that grows and is jittered, so writers racing
 * on one stream take turns instead of colliding again (twenty concurrent changes of one object all go
 * through). A loser costs one stream read per attempt; the pauses add up to well under a second.
 */
export const jitteredRetry: RetryPolicy = {
  attempts: 20,
  pauseMs: (failed) => Math.random() * Math.min(2 ** failed, 50),
};
