import type pg from 'pg';

/**
 * Wakes other processes' subscribers after appends committed, with one coalesced NOTIFY.
 *
 * A NOTIFY inside the appending transaction would serialize commits: PostgreSQL holds a cluster-wide
 * lock from a notifying transaction's pre-commit until its commit record is flushed, so concurrent
 * appenders would queue behind each other's WAL flushes instead of sharing one. So appends commit
 * without notifying, and this sends `pg_notify` from its own tiny transaction afterwards. While one is
 * in flight, further requests are folded into a single follow-up sent after it, which starts after
 * every append that asked — a subscriber woken by it finds them all.
 *
 * A lost notification costs latency only: subscribers also poll.
 */
const notifyTimeoutMs = 5_000;

export class CommitNotifier {
  private sending = false;
  /** Requests so far; a notification sent after reading it covers every one of them. */
  private requests = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Asks for a notification sent after this call; returns at once. */
  notifyCommitted(): void {
    this.requests += 1;
    if (this.sending) return;
    this.sending = true;
    void this.sendUntilQuiet();
  }

  private async sendUntilQuiet(): Promise<void> {
    for (let covered = 0; covered < this.requests;) {
      covered = this.requests;
      try {
        // A query that never settles (a dead socket) must not stop every later notification.
        await settledWithin(
          this.pool.query({
            name: 'es_notify_committed',
            text: `SELECT pg_notify($1::text, '')`,
            values: [this.channel],
          }),
          notifyTimeoutMs,
        );
      } catch (error) {
        this.onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
    this.sending = false;
  }
}

/** Resolves with `work`, or rejects once `ms` have passed without it settling. */
function settledWithin<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`commit notification did not settle within ${ms} ms`));
    }, ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => {
    clearTimeout(timer);
  });
}
