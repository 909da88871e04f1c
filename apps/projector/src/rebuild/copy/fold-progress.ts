import { formatPosition, type Position } from '@portal/domain';
import type { Logger } from '@portal/platform';

const reportEveryMs = 5_000;

/**
 * An info line at most every few seconds while the history is folded: events so far, the rate since
 * the start, and the time left at that rate (by the global part of the positions, as the admin
 * console's bar measures it). Before the first position that says how far it is, the time left is
 * unknown and the line leaves it out rather than say 0.
 */
export class FoldProgress {
  private readonly startedAt = performance.now();
  private lastReportAt = this.startedAt;

  constructor(
    private readonly log: Logger,
    private readonly until: Position,
  ) {}

  paged(events: number, position: Position): void {
    const now = performance.now();
    if (now - this.lastReportAt < reportEveryMs) return;
    this.lastReportAt = now;
    const seconds = (now - this.startedAt) / 1000;
    const eventsPerSecond = Math.round(events / seconds);
    const done = Number(position.prepare);
    const total = Number(this.until.prepare);
    const etaSeconds = done > 0 ? Math.round((Math.max(total - done, 0) / done) * seconds) : undefined;
    this.log.info(
      {
        events,
        eventsPerSecond,
        ...(etaSeconds === undefined ? {} : { etaSeconds }),
        position: formatPosition(position),
      },
      'rebuild: folding the history in memory',
    );
  }
}
