import { comparePositions, type RecordedEvent } from '@portal/domain';
import { Counter, Gauge, Histogram, type Logger, type Registry } from '@portal/platform';
import type { ProjectorObserver } from '../projector-observer.js';
import {
  lagInEvents,
  readProjectionStatus,
  type ProjectionStatus,
  type ProjectionStatusSource,
} from './projection-status.js';

/**
 * The projector's metrics: what it does (batches, leadership, a halt) as it happens, and where the
 * projection stands (checkpoint, head, lag, dead letters) read at scrape time. A status that cannot be
 * read (database away) leaves the last values and is logged at debug: the scrape still answers.
 */
export function projectorMetrics(
  registry: Registry,
  source: ProjectionStatusSource,
  log: Logger,
): ProjectorObserver {
  const status = new StatusReader(source, log);
  new Gauge({
    name: 'portal_projector_checkpoint_position',
    help: 'Global position of the last event the read models include (the checkpoint).',
    registers: [registry],
    async collect() {
      const current = await status.read();
      if (current) this.set(Number(current.checkpoint.prepare));
    },
  });
  new Gauge({
    name: 'portal_eventstore_head_position',
    help: 'Global position of the newest event a subscriber can see.',
    registers: [registry],
    async collect() {
      const current = await status.read();
      if (current) this.set(Number(current.head.prepare));
    },
  });
  new Gauge({
    name: 'portal_projector_lag_events',
    help: 'How many events the checkpoint is behind the head (PostgreSQL store: global positions, gaps included).',
    registers: [registry],
    async collect() {
      const current = await status.read();
      if (current) this.set(lagInEvents(current));
    },
  });
  new Gauge({
    name: 'portal_projector_lag_seconds',
    help: 'How long the projection has been behind the head: the lesser of the time since it was last seen caught up and the age of the newest event applied; 0 when caught up.',
    registers: [registry],
    async collect() {
      if (await status.read()) this.set(status.lagSeconds());
    },
  });
  new Gauge({
    name: 'portal_projector_dead_letters',
    help: 'Events recorded as dead letters for this projection (each one halted it once).',
    registers: [registry],
    async collect() {
      const current = await status.read();
      if (current) this.set(current.deadLetters);
    },
  });
  let haltedHere = false;
  new Gauge({
    name: 'portal_projector_halted',
    help: '1 while the projection is stopped on a dead-lettered event its checkpoint has not passed.',
    registers: [registry],
    async collect() {
      const current = await status.read();
      if (current) this.set(current.stuckOnDeadLetter || haltedHere ? 1 : 0);
      else if (haltedHere) this.set(1);
    },
  });
  const leader = new Gauge({
    name: 'portal_projector_leader',
    help: '1 while this instance holds the projection lock and projects, 0 while it waits as standby.',
    registers: [registry],
  });
  leader.set(0);
  const batchEvents = new Histogram({
    name: 'portal_projector_batch_events',
    help: 'Events per applied batch (one transaction with its checkpoint).',
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000],
    registers: [registry],
  });
  const batchDuration = new Histogram({
    name: 'portal_projector_batch_duration_seconds',
    help: 'Time to apply one batch, retries included.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const applied = new Counter({
    name: 'portal_projector_events_applied_total',
    help: 'Events applied to the read models by this instance.',
    registers: [registry],
  });
  return {
    leading(isLeader) {
      leader.set(isLeader ? 1 : 0);
    },
    batchApplied(batch: readonly RecordedEvent[], durationMs: number) {
      batchEvents.observe(batch.length);
      batchDuration.observe(durationMs / 1000);
      applied.inc(batch.length);
      const last = batch.at(-1);
      if (last) status.applied(Date.parse(last.metadata.occurredAt));
    },
    halted() {
      haltedHere = true;
    },
  };
}

class StatusReader {
  /**
   * The read in flight: the gauges of one scrape (and scrapes coming together) share it. A finished
   * read is never reused, so a scrape always shows the projection as it stands when it asks.
   */
  private pending: Promise<ProjectionStatus | null> | null = null;
  private latest: ProjectionStatus | null = null;
  /** When a read last found the checkpoint at the head (or first found it behind). */
  private caughtUpAt = Date.now();
  private newestAppliedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly source: ProjectionStatusSource,
    private readonly log: Logger,
  ) {}

  read(): Promise<ProjectionStatus | null> {
    if (this.pending) return this.pending;
    this.pending = readProjectionStatus(this.source)
      .then(
        (status) => {
          this.seen(status);
          return status;
        },
        (error: unknown) => {
          this.log.debug({ err: error }, 'projection status not readable for metrics');
          return null;
        },
      )
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  applied(occurredAtMs: number): void {
    if (occurredAtMs > this.newestAppliedAt) this.newestAppliedAt = occurredAtMs;
  }

  lagSeconds(): number {
    const now = Date.now();
    if (this.latest === null || comparePositions(this.latest.checkpoint, this.latest.head) >= 0) return 0;
    return Math.max(0, Math.min(now - this.caughtUpAt, now - this.newestAppliedAt)) / 1000;
  }

  private seen(status: ProjectionStatus): void {
    const wasBehind = this.latest !== null && comparePositions(this.latest.checkpoint, this.latest.head) < 0;
    const behind = comparePositions(status.checkpoint, status.head) < 0;
    // Caught up now, or behind for the first time since: the time behind counts from here.
    if (!behind || !wasBehind) this.caughtUpAt = Date.now();
    this.latest = status;
  }
}
