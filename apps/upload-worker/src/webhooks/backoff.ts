/** No wait between attempts grows past an hour, however many attempts are configured. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

/**
 * The wait before retry number `attemptsMade` (1 after the first failure): `firstDelayMs`, then doubling
 * — 1 s, 2 s, 4 s … with the defaults, so eight attempts span about two minutes.
 */
export function retryDelayMs(attemptsMade: number, firstDelayMs: number): number {
  const doublings = Math.max(0, attemptsMade - 1);
  return Math.min(MAX_RETRY_DELAY_MS, firstDelayMs * 2 ** doublings);
}

/** The waits between all attempts of one delivery: `attempts - 1` of them. */
export function retrySchedule(attempts: number, firstDelayMs: number): number[] {
  return Array.from({ length: Math.max(0, attempts - 1) }, (_, index) =>
    retryDelayMs(index + 1, firstDelayMs),
  );
}
