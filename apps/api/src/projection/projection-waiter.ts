import pg from 'pg';
import { comparePositions, parsePosition, START, type Position } from '@portal/domain';
import { IDENTITY_CHANGED_CHANNEL, inSpan, tracerOf, type Logger, type Pool } from '@portal/platform';
import {
  PORTAL_CHECKPOINT_NAME as PROJECTION_NAME,
  PORTAL_PROJECTION_CHANNEL as PROJECTION_CHANNEL,
} from '@portal/read-model-core';
import { UNOBSERVED_WAITS, type ProjectionWaitObserver } from './projection-wait-metrics.js';

/** A missed notification (reconnect, rebuild swap) only delays a waiter by this much. */
const POLL_INTERVAL_MS = 250;
const MIN_RECONNECT_DELAY_MS = 250;
const MAX_RECONNECT_DELAY_MS = 10_000;

const tracer = tracerOf('@portal/api');

interface Waiter {
  readonly position: Position;
  readonly resolve: (projected: boolean) => void;
  readonly timer: NodeJS.Timeout;
  readonly startedAt: number;
}

/**
 * Lets a request wait until the read models include a given event position:
 * a create answers after its own projection, a read honours `X-Min-Position`.
 */
export class ProjectionWaiter {
  private checkpoint: Position = START;
  private readonly waiters = new Set<Waiter>();
  private readonly advanceListeners = new Set<(position: Position) => void>();
  private readonly identityListeners = new Set<() => void>();
  private listener: pg.Client | null = null;
  private poller: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelayMs = MIN_RECONNECT_DELAY_MS;
  private refreshing = false;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly connectionString: string,
    private readonly logger: Logger,
    private readonly observer: ProjectionWaitObserver = UNOBSERVED_WAITS,
  ) {}

  async start(): Promise<void> {
    await this.refresh();
    await this.listen();
    // The fallback for missed notifications; it also keeps `current()` fresh for the readiness probe.
    this.poller = setInterval(() => {
      void this.refresh();
    }, POLL_INTERVAL_MS);
    this.poller.unref();
  }

  current(): Position {
    return this.checkpoint;
  }

  /** Calls `listener` each time the checkpoint moves forward (the SSE change feed); returns the unsubscribe. */
  onAdvance(listener: (position: Position) => void): () => void {
    this.advanceListeners.add(listener);
    return () => {
      this.advanceListeners.delete(listener);
    };
  }

  /**
   * Calls `listener` when identity facts may have changed: on the projector's signal, and each time the
   * listener connection is (re)made, since signals sent while it was down are lost.
   */
  onIdentityChange(listener: () => void): void {
    this.identityListeners.add(listener);
  }

  /**
   * Resolves `true` once `position` is projected, `false` when `timeoutMs` passes first. Traced as a
   * `projection.wait` span of the request: the time between its append and the projector's batch.
   */
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const already = comparePositions(position, this.checkpoint) <= 0;
    const attributes = { 'portal.projection.timeout_ms': timeoutMs };
    return inSpan(tracer, 'projection.wait', { attributes }, async (span) => {
      const projected = await this.waitUntil(position, timeoutMs);
      const outcome = already ? 'already' : projected ? 'projected' : 'timed_out';
      span.setAttribute('portal.projection.outcome', outcome);
      return projected;
    });
  }

  private waitUntil(position: Position, timeoutMs: number): Promise<boolean> {
    if (comparePositions(position, this.checkpoint) <= 0) {
      this.observer.waited('already', 0);
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve,
        startedAt: performance.now(),
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          this.observer.waited('timed_out', (performance.now() - waiter.startedAt) / 1000);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.poller) clearInterval(this.poller);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiters.clear();
    await this.listener?.end().catch(() => undefined);
  }

  private async refresh(): Promise<void> {
    // One poll at a time: a slow database must not pile queries onto the request pool.
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const result = await this.pool.query<{ commit_position: string; prepare_position: string }>(
        'SELECT commit_position, prepare_position FROM read.projection_checkpoints WHERE name = $1',
        [PROJECTION_NAME],
      );
      const row = result.rows[0];
      if (row) this.advance({ commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) });
    } catch (error) {
      // Before the projector's first start the table does not exist; waiters simply keep waiting.
      this.logger.debug({ err: error }, 'projection checkpoint not readable yet');
    } finally {
      this.refreshing = false;
    }
  }

  /** LISTENs on a dedicated connection; on any failure retries with backoff until closed. */
  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: 'api-projection-listener',
    });
    client.on('notification', (message) => {
      if (message.channel === IDENTITY_CHANGED_CHANNEL) {
        this.identityChanged();
        return;
      }
      const position = message.payload ? parsePosition(message.payload) : null;
      if (position) this.advance(position);
    });
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'projection listener lost its connection; reconnecting');
      this.relisten(client);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${PROJECTION_CHANNEL}; LISTEN ${IDENTITY_CHANGED_CHANNEL}`);
      this.listener = client;
      this.identityChanged();
      this.reconnectDelayMs = MIN_RECONNECT_DELAY_MS;
      // Notifications sent while disconnected are gone: read the checkpoint once to catch up.
      await this.refresh();
    } catch (error) {
      this.logger.warn({ err: error }, 'projection listener could not connect; retrying');
      this.relisten(client);
    }
  }

  private relisten(failed: pg.Client): void {
    if (this.listener === failed) this.listener = null;
    void failed.end().catch(() => undefined);
    if (this.closed || this.reconnectTimer) return;
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(delay * 2, MAX_RECONNECT_DELAY_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.closed) void this.listen();
    }, delay);
    this.reconnectTimer.unref();
  }

  private identityChanged(): void {
    for (const listener of this.identityListeners) listener();
  }

  private advance(position: Position): void {
    // A poll may answer after a newer notification arrived: the checkpoint only moves forward.
    if (comparePositions(position, this.checkpoint) <= 0) return;
    this.checkpoint = position;
    for (const waiter of this.waiters) {
      if (comparePositions(waiter.position, position) <= 0) {
        clearTimeout(waiter.timer);
        this.waiters.delete(waiter);
        this.observer.waited('projected', (performance.now() - waiter.startedAt) / 1000);
        waiter.resolve(true);
      }
    }
    for (const listener of this.advanceListeners) listener(position);
  }
}
