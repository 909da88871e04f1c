import { formatPosition, type EventStore, type Position, type RecordedEvent } from '@portal/domain';
import { isConnectionError, type Logger, type Pool } from '@portal/platform';
import { abortableDelay, isAborted } from './abortable-delay.js';
import {
  applyBatch,
  describeError,
  EventHandlerError,
  type BatchOutcome,
  type BatchTarget,
} from './batch.js';
import { recordDeadLetter } from './dead-letters/dead-letters.js';
import { traceBatch } from './batch-tracing.js';
import type { Projection } from '@portal/read-model-core';
import { readCheckpoint } from '@portal/read-model-core';
import { ProgressReport } from './progress-report.js';
import { UNOBSERVED_PROJECTOR, type ProjectorObserver } from './projector-observer.js';
import { readAhead } from './read-ahead.js';
import { PendingListMerger } from './pending-lists.js';
import { ReadSchemaStatistics } from './statistics.js';

export interface RunnerOptions {
  readonly pool: Pool;
  readonly store: EventStore;
  readonly projection: Projection;
  /** Schema of the read models and their checkpoint: `read`, or a test's own. */
  readonly schema: string;
  /** Schema of operational tables (dead letters): `projector`, or a test's own. */
  readonly operationsSchema: string;
  readonly notifyChannel: string;
  /** Most events per transaction. */
  readonly batchSize: number;
  /** Waits before each retry of a failing handler; when they run out the event is dead-lettered. */
  readonly retryDelaysMs: readonly number[];
  readonly log: Logger;
  /** The process's metrics; none in tests that do not look at them. */
  readonly observer?: ProjectorObserver;
  /** Events between merges of the GIN pending lists (`PendingListMerger`); 0 never merges. */
  readonly mergePendingListsEvery?: number;
}

/** The default backoff: three retries after the first failure. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [100, 400, 1600];

/** A handler kept failing on one event: it is in the dead-letter table and the projection stopped. */
export class ProjectionHaltedError extends Error {
  override readonly name = 'ProjectionHaltedError';
  constructor(
    readonly event: RecordedEvent,
    override readonly cause: unknown,
  ) {
    super(
      `projection halted on event ${event.id} (${event.type}, stream ${event.streamId}@${event.revision}, ` +
        `position ${formatPosition(event.position)}): ${describeError(cause)}`,
    );
  }
}

/**
 * One ordered catch-up subscription from the stored checkpoint, applied batch by batch. When the
 * checkpoint moves under it (a rebuild swapped the read schema) it reloads and resubscribes.
 * Run it only while holding leadership (see `runProjector`).
 */
export class ProjectionRunner {
  private readonly target: BatchTarget & { readonly schema: string };
  /** Kept across resubscriptions, so the events applied since a fresh schema was found keep adding up. */
  private readonly statistics: ReadSchemaStatistics;
  /** Merges the schema's GIN pending lists beside the batches; counts events across resubscriptions. */
  private readonly pendingLists: PendingListMerger;

  constructor(private readonly options: RunnerOptions) {
    const statistics = new ReadSchemaStatistics(options.pool, options.schema, options.log);
    this.statistics = statistics;
    this.pendingLists = new PendingListMerger(
      options.pool,
      options.schema,
      options.log,
      options.mergePendingListsEvery,
    );
    this.target = {
      projection: options.projection,
      schema: options.schema,
      notifyChannel: options.notifyChannel,
      log: options.log,
      customPlans: () => statistics.customPlans(),
    };
  }

  /**
   * Projects until `signal` aborts (the current batch is finished first). Throws `ProjectionHaltedError`
   * on a poison event; any other failure (database or event store unreachable) is logged and retried.
   */
  async run(signal: AbortSignal): Promise<void> {
    const { log } = this.options;
    let failures = 0;
    while (!signal.aborted) {
      try {
        await this.followFromCheckpoint(signal);
        failures = 0;
      } catch (error) {
        if (error instanceof ProjectionHaltedError) throw error;
        if (isAborted(signal)) return;
        failures += 1;
        const delayMs = Math.min(250 * 2 ** failures, 15_000);
        log.error({ err: error, delayMs }, 'projection interrupted; resubscribing from the checkpoint');
        await abortableDelay(delayMs, signal);
      }
    }
  }

  private async followFromCheckpoint(signal: AbortSignal): Promise<void> {
    const { pool, store, projection, schema, batchSize, log } = this.options;
    let checkpoint = await readCheckpoint(pool, { schema, name: projection.name });
    log.info(
      { projection: projection.name, schema, position: formatPosition(checkpoint) },
      'subscribing from checkpoint',
    );
    await this.statistics.analyzeIfNever();
    const subscription = new AbortController();
    const stop = (): void => {
      subscription.abort();
    };
    signal.addEventListener('abort', stop, { once: true });
    const progress = new ProgressReport(log);
    try {
      const pages = store.subscribeAll({
        after: checkpoint,
        signal: subscription.signal,
        maxBatchSize: batchSize,
      });
      for await (const batch of readAhead(pages)) {
        if (batch.length === 0) continue;
        const startedAt = performance.now();
        const outcome = await traceBatch(projection.name, batch, () =>
          this.applyWithRetries(batch, checkpoint),
        );
        if (outcome.kind === 'checkpoint-moved') {
          log.info(
            { expected: formatPosition(checkpoint), found: formatPosition(outcome.found) },
            'checkpoint moved under the projector (rebuild or another instance); reloading',
          );
          subscription.abort();
          return;
        }
        checkpoint = outcome.position;
        const durationMs = performance.now() - startedAt;
        progress.batchApplied(batch, durationMs);
        (this.options.observer ?? UNOBSERVED_PROJECTOR).batchApplied(batch, durationMs);
        await this.statistics.eventsApplied(batch.length);
        if (signal.aborted) return;
        this.pendingLists.eventsApplied(batch.length);
      }
    } finally {
      signal.removeEventListener('abort', stop);
      subscription.abort();
      await this.pendingLists.settled();
    }
  }

  private async applyWithRetries(batch: readonly RecordedEvent[], expected: Position): Promise<BatchOutcome> {
    const { pool, retryDelaysMs, log } = this.options;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await applyBatch(pool, this.target, batch, expected);
      } catch (error) {
        // Only a handler's own failure is the event's fault; a lost connection goes back to `run`.
        if (!(error instanceof EventHandlerError) || isConnectionError(error.cause)) throw error;
        const delayMs = retryDelaysMs[attempt];
        if (delayMs === undefined) return this.halt(batch, expected, error, attempt + 1);
        log.warn(
          {
            attempt: attempt + 1,
            delayMs,
            eventId: error.event.id,
            type: error.event.type,
            err: error.cause,
          },
          'handler failed; retrying the batch',
        );
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }

  /** Commits the events before the poison one, records it as a dead letter, and stops. */
  private async halt(
    batch: readonly RecordedEvent[],
    expected: Position,
    failure: EventHandlerError,
    attempts: number,
  ): Promise<BatchOutcome> {
    const { pool, projection, operationsSchema, log } = this.options;
    const healthy = batch.slice(0, failure.index);
    if (healthy.length > 0) {
      const outcome = await applyBatch(pool, this.target, healthy, expected);
      if (outcome.kind === 'checkpoint-moved') return outcome;
    }
    const { event } = failure;
    await recordDeadLetter(pool, operationsSchema, {
      projection: projection.name,
      event,
      error: `${failure.readModel}: ${describeError(failure.cause)}`,
    });
    const halted = new ProjectionHaltedError(event, failure.cause);
    this.options.observer?.halted();
    log.error(
      {
        eventId: event.id,
        type: event.type,
        streamId: event.streamId,
        revision: event.revision.toString(),
        position: formatPosition(event.position),
        readModel: failure.readModel,
        attempts,
        err: failure.cause,
      },
      `${halted.message} after ${attempts} attempts; recorded in ${operationsSchema}.dead_letters`,
    );
    throw halted;
  }
}
