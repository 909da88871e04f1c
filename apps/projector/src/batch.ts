import { comparePositions, formatPosition, type Position, type RecordedEvent } from '@portal/domain';
import { withClient, type Logger, type Pool } from '@portal/platform';
import type { Projection, Sql } from './projection.js';
import { compareAndSetCheckpoint, lockCheckpoint } from './read-models/projection-checkpoints/checkpoints.js';
import { quoteIdentifier } from './sql-identifier.js';

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

/** Applies every read model's handler to every event, in order. */
export async function applyEvents(
  sql: Sql,
  projection: Projection,
  events: readonly RecordedEvent[],
  log: Logger,
): Promise<void> {
  for (const [index, event] of events.entries()) {
    for (const readModel of projection.readModels) {
      try {
        await readModel.apply(sql, event, { log });
      } catch (error) {
        throw new EventHandlerError(event, index, readModel.name, error);
      }
    }
  }
}

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
): Promise<BatchOutcome> {
  const name = target.projection.name;
  const found = await lockCheckpoint(sql, name);
  if (comparePositions(found, expected) !== 0) return { kind: 'checkpoint-moved', found };
  await applyEvents(sql, target.projection, events, target.log);
  const position = lastPosition(events);
  if (!(await compareAndSetCheckpoint(sql, name, expected, position))) {
    return { kind: 'checkpoint-moved', found: await lockCheckpoint(sql, name) };
  }
  if (target.notifyChannel !== null) await notifyPosition(sql, target.notifyChannel, position);
  return { kind: 'applied', position };
}

/**
 * One batch in its own transaction: `BEGIN` → handlers → compare-and-set checkpoint → notify → `COMMIT`.
 * A moved checkpoint rolls back everything the batch did.
 */
export async function applyBatch(
  pool: Pool,
  target: BatchTarget & { readonly schema: string },
  events: readonly RecordedEvent[],
  expected: Position,
): Promise<BatchOutcome> {
  return withClient(pool, async (client) => {
    await client.query('BEGIN');
    try {
      await client.query(`SET LOCAL search_path TO ${quoteIdentifier(target.schema)}, public`);
      const outcome = await applyBatchInOpenTransaction(client, target, events, expected);
      await client.query(outcome.kind === 'applied' ? 'COMMIT' : 'ROLLBACK');
      return outcome;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}
