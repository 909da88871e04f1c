import { formatPosition, type RecordedEvent } from '@portal/domain';
import type { Logger } from '@portal/platform';

const summaryEveryMs = 5_000;

/**
 * Per-batch details at debug level, and an info line at most every few seconds, so a busy projector
 * reports its rate and lag without a log line per transaction.
 */
export class ProgressReport {
  private eventsSinceSummary = 0;
  private lastSummaryAt = performance.now();

  constructor(private readonly log: Logger) {}

  batchApplied(batch: readonly RecordedEvent[], durationMs: number): void {
    const last = batch.at(-1);
    if (!last) return;
    const position = formatPosition(last.position);
    // How far behind the newest applied event is: a projector keeping up stays near zero.
    const lagMs = Math.max(0, Date.now() - Date.parse(last.metadata.occurredAt));
    this.log.debug(
      { events: batch.length, position, lagMs, durationMs: Math.round(durationMs) },
      'batch applied',
    );
    this.eventsSinceSummary += batch.length;
    const now = performance.now();
    const elapsedMs = now - this.lastSummaryAt;
    if (elapsedMs < summaryEveryMs) return;
    const eventsPerSecond = Math.round((this.eventsSinceSummary * 1000) / elapsedMs);
    this.log.info({ events: this.eventsSinceSummary, eventsPerSecond, position, lagMs }, 'projecting');
    this.eventsSinceSummary = 0;
    this.lastSummaryAt = now;
  }
}
