import { formatPosition, type EventStore, type Position } from '@portal/domain';
import { inTransaction, type Logger, type Pool } from '@portal/platform';
import { applyBatchInOpenTransaction, describeError, EventHandlerError } from '../batch.js';
import { nextEventAfter } from '../next-event.js';
import type { Projection } from '@portal/read-model-core';
import { readCheckpoint, quoteIdentifier } from '@portal/read-model-core';
import { findDeadLetter, type DeadLetterRecord } from './dead-letter-queries.js';

export interface DeadLetterDesk {
  readonly pool: Pool;
  readonly store: EventStore;
  readonly projection: Projection;
  /** The live read schema (`read`). */
  readonly schema: string;
  /** Where the dead letters and their resolutions are (`projector`). */
  readonly operationsSchema: string;
  readonly notifyChannel: string;
  readonly log: Logger;
}

/** Why a dead letter was not resolved; `code` tells a caller what kind of answer to give. */
export class DeadLetterRefusal extends Error {
  override readonly name = 'DeadLetterRefusal';
  constructor(
    /**
     * `NOT_FOUND`: no such dead letter; `RESOLVED`: its event was resolved before; `NOT_NEXT`: the
     * projection does not stand right before its event; `FAILED`: applying it failed again.
     */
    readonly code: 'NOT_FOUND' | 'RESOLVED' | 'NOT_NEXT' | 'FAILED',
    message: string,
  ) {
    super(message);
  }
}

export interface DeadLetterDecision {
  readonly letter: DeadLetterRecord;
  readonly action: 'applied' | 'skipped';
  /** The checkpoint after the decision: the dead letter's event. */
  readonly checkpoint: Position;
}

/**
 * Applies a dead letter's event now, with the projector's own code, in one transaction with its
 * checkpoint and the resolution row: after a fix (a deployed handler, repaired data) the projection goes
 * on from there without waiting for a restart. Refused unless the projection stands right before the
 * event; `FAILED` with the handler's error when it fails again (nothing is recorded then).
 */
export function retryDeadLetter(
  desk: DeadLetterDesk,
  id: string,
  operator: string,
): Promise<DeadLetterDecision> {
  return resolve(desk, id, { action: 'applied', reason: null, operator });
}

/**
 * Moves the checkpoint past a dead letter's event without applying it, and records who did it and why in
 * the same transaction. No read model ever shows the event (its audit row, change-feed entry and webhooks
 * included), and every rebuild passes over it too.
 */
export function skipDeadLetter(
  desk: DeadLetterDesk,
  id: string,
  decision: { readonly operator: string; readonly reason: string },
): Promise<DeadLetterDecision> {
  if (decision.reason.trim() === '') {
    return Promise.reject(new Error('a skip needs a reason an auditor can read'));
  }
  return resolve(desk, id, { action: 'skipped', ...decision });
}

async function resolve(
  desk: DeadLetterDesk,
  id: string,
  decision: {
    readonly action: 'applied' | 'skipped';
    readonly reason: string | null;
    readonly operator: string;
  },
): Promise<DeadLetterDecision> {
  const source = { operationsSchema: desk.operationsSchema, projection: desk.projection.name };
  const checkpoint = await readCheckpoint(desk.pool, { schema: desk.schema, name: desk.projection.name });
  const letter = await findDeadLetter(desk.pool, source, id, checkpoint);
  if (!letter)
    throw new DeadLetterRefusal('NOT_FOUND', `no dead letter ${id} for projection ${source.projection}`);
  if (letter.resolution) {
    const { action, operator, resolvedAt, reason } = letter.resolution;
    throw new DeadLetterRefusal(
      'RESOLVED',
      `its event was already ${action} by ${operator} at ${resolvedAt.toISOString()}${reason === null ? '' : ` (${reason})`}`,
    );
  }
  if (letter.state === 'passed') {
    throw new DeadLetterRefusal(
      'NOT_NEXT',
      `the projection is already past its event (checkpoint ${formatPosition(checkpoint)}, event at ${letter.position}): nothing to do`,
    );
  }
  const next = await nextEventAfter(desk.store, checkpoint);
  if (next?.id !== letter.eventId) {
    throw new DeadLetterRefusal(
      'NOT_NEXT',
      `the projection stands at ${formatPosition(checkpoint)} and its next event is ${next ? `${next.id} (${next.type}, at ${formatPosition(next.position)})` : 'none'}, not this one: resolve that one first`,
    );
  }
  const target = {
    projection: desk.projection,
    notifyChannel: desk.notifyChannel,
    log: desk.log,
    ...(decision.action === 'skipped' ? { passOver: new Set([next.id]) } : {}),
  };
  try {
    return await inTransaction(desk.pool, async (client) => {
      await client.query(`SET LOCAL search_path TO ${quoteIdentifier(desk.schema)}, public`);
      const outcome = await applyBatchInOpenTransaction(client, target, [next], checkpoint, 'events');
      if (outcome.kind === 'checkpoint-moved') {
        throw new DeadLetterRefusal(
          'NOT_NEXT',
          `the checkpoint moved to ${formatPosition(outcome.found)} meanwhile (a projector is running): look again`,
        );
      }
      await client.query(
        `INSERT INTO ${quoteIdentifier(desk.operationsSchema)}.dead_letter_resolutions
           (projection, event_id, dead_letter_id, position, type, action, reason, operator)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          source.projection,
          letter.eventId,
          letter.id,
          letter.position,
          letter.type,
          decision.action,
          decision.reason,
          decision.operator,
        ],
      );
      return { letter, action: decision.action, checkpoint: outcome.position };
    });
  } catch (error) {
    if (error instanceof EventHandlerError) {
      throw new DeadLetterRefusal(
        'FAILED',
        `applying event ${letter.eventId} failed again: ${error.readModel}: ${describeError(error.cause)}`,
      );
    }
    throw error;
  }
}
