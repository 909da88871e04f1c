import type { Logger } from '@portal/platform';

/** While an outage lasts, a source repeats its error this seldom at most. */
const REPEAT_AFTER_MS = 60_000;

export interface ProblemLog {
  /** Logs the first problem of an outage, then at most once a minute with how many were left out. */
  readonly problem: (error: unknown) => void;
  /** Logs that the source works again, if it had a problem. */
  readonly recovered: () => void;
}

/**
 * Redis and BullMQ report every failed reconnection (several a second across connections); one line
 * per outage and minute says the same without burying everything else in the log.
 */
export function problemLog(logger: Logger, message: string, now: () => number = Date.now): ProblemLog {
  let lastLoggedAt: number | null = null;
  let leftOut = 0;
  return {
    problem: (error) => {
      const at = now();
      if (lastLoggedAt !== null && at - lastLoggedAt < REPEAT_AFTER_MS) {
        leftOut += 1;
        return;
      }
      logger.warn({ err: error, ...(leftOut > 0 ? { repeated: leftOut } : {}) }, message);
      lastLoggedAt = at;
      leftOut = 0;
    },
    recovered: () => {
      if (lastLoggedAt === null) return;
      logger.info({ repeated: leftOut }, `${message}: recovered`);
      lastLoggedAt = null;
      leftOut = 0;
    },
  };
}
