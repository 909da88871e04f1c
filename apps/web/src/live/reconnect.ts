/**
 * When to reconnect to the change feed: after a stream that ended normally, the server's `retry:`
 * delay; after failures, doubling from it up to a minute, with jitter so that clients dropped together
 * (a restart) do not all come back in the same instant.
 */
export const DEFAULT_RETRY_MS = 2_000;
export const MAX_RETRY_MS = 60_000;

export function reconnectDelay(
  failuresInARow: number,
  retryMs: number | null,
  random: () => number = Math.random,
): number {
  const base = retryMs ?? DEFAULT_RETRY_MS;
  if (failuresInARow <= 0) return base;
  const backoff = Math.min(MAX_RETRY_MS, base * 2 ** Math.min(failuresInARow, 16));
  return Math.round(backoff / 2 + (random() * backoff) / 2);
}

/** The headers of a (re)connection: `Last-Event-ID` resumes right after the last event received. */
export function feedHeaders(lastEventId: string | null): Record<string, string> {
  return lastEventId === null
    ? { accept: 'text/event-stream' }
    : { accept: 'text/event-stream', 'last-event-id': lastEventId };
}
