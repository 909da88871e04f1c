import { comparePositions, formatPosition, type Position, type RecordedEvent } from '@portal/domain';
import { isConnectionError, withClient, type Logger, type Pool } from '@portal/platform';
import {
  signalsRaised,
  type Projection,
  type ReadModel,
  type Sql,
  commitBatchTransaction,
  compareAndSetCheckpoint,
  lockCheckpoint,
  openBatchTransaction,
} from '@portal/read-model-core';
import { batchFootprints, cutIntoSteps, type BatchStep } from './sets/runs.js';

/** A read model's handler threw on one event; carries the event so it can be retried or dead-lettered. */
export class EventHandlerError extends Error {
  override readonly name = 'EventHandlerError';
  constructor(
    readonly event: RecordedEvent,
    /** Index of the event in its batch: the events before it applied cleanly. */
    readonly index: number,
    readonly readModel: string,
    override readonly cause: unknown,
  ) {
    super(
      `${readModel} failed on event ${event.id} (${event.type}, stream ${event.streamId}@${event.revision}): ${describeError(cause)}`,
    );
  }
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type BatchOutcome =
  | { readonly kind: 'applied'; readonly position: Position }
  /** The checkpoint no longer holds what we expected (a rebuild swapped the schema, or another instance ran). */
  | { readonly kind: 'checkpoint-moved'; readonly found: Position };

export interface BatchTarget {
  readonly projection: Projection;
  /**
   * Channel told the new position on commit; the API listens to wake requests waiting for their event.
   * `null` while a rebuild fills a schema nobody reads yet.
   */
  readonly notifyChannel: string | null;
  readonly log: Logger;
  /**
   * Whether the batch should plan every statement for its parameters (`ReadSchemaStatistics.customPlans`):
   * while a schema grows from nothing, generic plans would be made on statistics of an empty table.
   */
  readonly customPlans?: () => boolean;
  /**
   * Ids of events the operator skipped (docs/admin-cli.md): no read model applies them, and the
   * checkpoint moves past them all the same. A rebuild passes over them as the live projection did.
   * An `EventHandlerError`'s index then counts the events applied, so the runner, which needs that
   * index to commit the events before a poison one, never sets it.
   */
  readonly passOver?: ReadonlySet<string>;
}

/** The events of a batch its read models apply: all of them but those passed over. */
function eventsToApply(target: BatchTarget, events: readonly RecordedEvent[]): readonly RecordedEvent[] {
  const { passOver } = target;
  return passOver === undefined || passOver.size === 0
    ? events
    : events.filter((event) => !passOver.has(event.id));
}

function lastPosition(events: readonly RecordedEvent[]): Position {
  const last = events.at(-1);
  if (!last) throw new Error('a batch holds at least one event');
  return last.position;
}

/** Delivered on commit only, so a listener never hears of a position it cannot read yet. */
export async function notifyPosition(sql: Sql, channel: string, position: Position): Promise<void> {
  await sql.query('SELECT pg_notify($1, $2)', [channel, formatPosition(position)]);
}

/** Applies every read model's handler to one event; `index` is its place in the batch. */
async function applyEvent(
  sql: Sql,
  projection: Projection,
  event: RecordedEvent,
  index: number,
  log: Logger,
): Promise<void> {
  for (const readModel of projection.readModels) {
    try {
      await readModel.apply(sql, event, { log });
    } catch (error) {
      throw new EventHandlerError(event, index, readModel.name, error);
    }
  }
}

/** Applies every read model's handler to every event, event after event: the reference application. */
export async function applyEvents(
  sql: Sql,
  projection: Projection,
  events: readonly RecordedEvent[],
  log: Logger,
): Promise<void> {
  for (const [index, event] of events.entries()) await applyEvent(sql, projection, event, index, log);
  await finishBatch(sql, projection, log);
}

/** Each read model's `finishBatch`, after the batch's events. */
async function finishBatch(sql: Sql, projection: Projection, log: Logger): Promise<void> {
  for (const readModel of projection.readModels) await readModel.finishBatch?.(sql, { log });
}

/**
 * A set statement of a run failed. It names no event (a run has many), so the batch is applied again
 * event by event, where a failure names its event for retries and the dead-letter table.
 */
export class RunFailedError extends Error {
  override readonly name = 'RunFailedError';
  constructor(
    readonly readModel: string,
    readonly events: number,
    override readonly cause: unknown,
  ) {
    super(`${readModel} failed on a run of ${events} events: ${describeError(cause)}`);
  }
}

/** One read model's `applyRun`, a failure named as a run's (the batch is then applied event by event). */
async function applyRunOf(
  sql: Sql,
  readModel: ReadModel,
  events: readonly RecordedEvent[],
  log: Logger,
): Promise<void> {
  if (events.length === 0) return;
  try {
    // Every read model has set handlers here: without them no event joins a run or is deferred.
    await readModel.sets?.applyRun(sql, events, { log });
  } catch (error) {
    throw new RunFailedError(readModel.name, events.length, error);
  }
}

/**
 * Applies the batch as `cutIntoSteps` cuts it: each run with one `applyRun` per read model, the events
 * between runs one by one. A read model that `defers` a lone event applies it with the next run instead
 * (or at the batch's end), unless an event that `endsDeferral` for it comes first (alone, or in a run:
 * then the deferred events go before the run). Leaves the same rows as `applyEvents`.
 */
export async function applyEventsInRuns(
  sql: Sql,
  projection: Projection,
  events: readonly RecordedEvent[],
  log: Logger,
  /** Told of each step before its statements are sent, and of the batch's end (`null`): for profiles. */
  onStep?: (step: BatchStep | null) => void,
): Promise<void> {
  const deferred = new Map<ReadModel, RecordedEvent[]>(projection.readModels.map((model) => [model, []]));
  const takeDeferred = (readModel: ReadModel): RecordedEvent[] => {
    const taken = deferred.get(readModel) ?? [];
    deferred.set(readModel, []);
    return taken;
  };
  // Events the read models before one may change what its deferred events read go after them.
  const endDeferrals = async (stepEvents: readonly RecordedEvent[]): Promise<void> => {
    for (const readModel of projection.readModels) {
      if (stepEvents.some((event) => readModel.sets?.endsDeferral?.(event) === true)) {
        await applyRunOf(sql, readModel, takeDeferred(readModel), log);
      }
    }
  };
  const footprints = await batchFootprints(sql, projection, events);
  for (const step of cutIntoSteps(projection, events, footprints)) {
    onStep?.(step);
    if (step.kind === 'run') {
      await endDeferrals(step.events);
      for (const readModel of projection.readModels) {
        await applyRunOf(sql, readModel, [...takeDeferred(readModel), ...step.events], log);
      }
      continue;
    }
    const { event, index } = step;
    await endDeferrals([event]);
    for (const readModel of projection.readModels) {
      if (readModel.sets?.defers?.(event) === true) {
        deferred.get(readModel)?.push(event);
        continue;
      }
      await applyRunOf(sql, readModel, takeDeferred(readModel), log);
      try {
        await readModel.apply(sql, event, { log });
      } catch (error) {
        throw new EventHandlerError(event, index, readModel.name, error);
      }
    }
  }
  onStep?.(null);
  for (const readModel of projection.readModels) {
    await applyRunOf(sql, readModel, takeDeferred(readModel), log);
  }
  await finishBatch(sql, projection, log);
}

/** How a batch's events are applied: as runs of sets (the default), or one by one (the reference). */
export type Application = 'runs' | 'events';

const applications: Record<Application, typeof applyEvents> = {
  runs: applyEventsInRuns,
  events: applyEvents,
};

/**
 * The body of one batch transaction, on a client whose transaction is open and whose `search_path`
 * points at the read schema: lock and compare the checkpoint, apply, move the checkpoint, notify.
 * Leaves commit or rollback to the caller.
 */
export async function applyBatchInOpenTransaction(
  sql: Sql,
  target: BatchTarget,
  events: readonly RecordedEvent[],
  expected: Position,
  application: Application = 'runs',
): Promise<BatchOutcome> {
  const name = target.projection.name;
  const found = await lockCheckpoint(sql, name);
  if (comparePositions(found, expected) !== 0) return { kind: 'checkpoint-moved', found };
  await applications[application](sql, target.projection, eventsToApply(target, events), target.log);
  const position = lastPosition(events);
  if (!(await compareAndSetCheckpoint(sql, name, expected, position))) {
    return { kind: 'checkpoint-moved', found: await lockCheckpoint(sql, name) };
  }
  if (target.notifyChannel !== null) {
    for (const signal of signalsRaised(target.projection, events)) {
      await sql.query("SELECT pg_notify($1, '')", [signal]);
    }
    await notifyPosition(sql, target.notifyChannel, position);
  }
  return { kind: 'applied', position };
}

async function applyBatchOnce(
  pool: Pool,
  target: BatchTarget & { readonly schema: string },
  events: readonly RecordedEvent[],
  expected: Position,
  application: Application,
): Promise<BatchOutcome> {
  const name = target.projection.name;
  return withClient(pool, async (client) => {
    try {
      const found = await openBatchTransaction(client, {
        schema: target.schema,
        name,
        customPlans: target.customPlans?.() ?? false,
      });
      if (comparePositions(found, expected) !== 0) {
        await client.query('ROLLBACK');
        return { kind: 'checkpoint-moved', found };
      }
      await applications[application](client, target.projection, eventsToApply(target, events), target.log);
      const position = lastPosition(events);
      await commitBatchTransaction(client, {
        name,
        expected,
        next: position,
        channel: target.notifyChannel,
        signals: signalsRaised(target.projection, events),
      });
      return { kind: 'applied', position };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}

/**
 * One batch in its own transaction: `BEGIN` and the checkpoint locked in one round trip → handlers →
 * checkpoint moved, notification and `COMMIT` in one round trip. A moved checkpoint rolls back
 * everything the batch did. When a run's set statement fails, the
 * batch is rolled back and applied again event by event, so a failure names its event.
 */
export async function applyBatch(
  pool: Pool,
  target: BatchTarget & { readonly schema: string },
  events: readonly RecordedEvent[],
  expected: Position,
  application: Application = 'runs',
): Promise<BatchOutcome> {
  try {
    return await applyBatchOnce(pool, target, events, expected, application);
  } catch (error) {
    if (!(error instanceof RunFailedError) || isConnectionError(error.cause)) throw error;
    target.log.warn(
      { err: error.cause, readModel: error.readModel, events: events.length },
      'a run of the batch failed; applying the batch again event by event',
    );
    return applyBatchOnce(pool, target, events, expected, 'events');
  }
}
