import { comparePositions, parsePosition, type EventStore, type Position } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { readCheckpoint, quoteIdentifier } from '@portal/read-model-core';

export interface ProjectionStatusSource {
  readonly pool: Pool;
  readonly store: EventStore;
  readonly projection: string;
  readonly schema: string;
  readonly operationsSchema: string;
}

export interface ProjectionStatus {
  readonly checkpoint: Position;
  readonly head: Position;
  readonly deadLetters: number;
  /** A dead letter the checkpoint has not passed: the projection stopped there and cannot go on by itself. */
  readonly stuckOnDeadLetter: boolean;
  /** Events with a dead letter the checkpoint has not passed (an event that failed twice counts once). */
  readonly openDeadLetters: number;
}

/**
 * Where the projection stands, read from the database and the event store: the same answer from the
 * leader, a standby, or an instance restarted after a halt. Nothing in memory, so a scrape is right
 * whichever instance it reaches.
 */
export async function readProjectionStatus(source: ProjectionStatusSource): Promise<ProjectionStatus> {
  const [checkpoint, head, letters] = await Promise.all([
    readCheckpoint(source.pool, { schema: source.schema, name: source.projection }),
    source.store.headPosition(),
    source.pool.query<{ event_id: string; position: string }>(
      `SELECT event_id, position FROM ${quoteIdentifier(source.operationsSchema)}.dead_letters
        WHERE projection = $1`,
      [source.projection],
    ),
  ]);
  const ahead = new Set(
    letters.rows
      .filter((row) => {
        const position = parsePosition(row.position);
        return position !== null && comparePositions(position, checkpoint) > 0;
      })
      .map((row) => row.event_id),
  );
  return {
    checkpoint,
    head,
    deadLetters: letters.rowCount ?? letters.rows.length,
    stuckOnDeadLetter: ahead.size > 0,
    openDeadLetters: ahead.size,
  };
}

/**
 * Events the checkpoint is behind the head, from the positions' global part: exact on PostgreSQL but for
 * the gaps a rolled-back append leaves; on EventStoreDB the difference is in log bytes, not events.
 */
export function lagInEvents(status: Pick<ProjectionStatus, 'checkpoint' | 'head'>): number {
  if (comparePositions(status.head, status.checkpoint) <= 0) return 0;
  const difference = status.head.prepare - status.checkpoint.prepare;
  return difference > 0n ? Number(difference) : 1;
}
