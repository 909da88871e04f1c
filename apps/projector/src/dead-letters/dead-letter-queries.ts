import { comparePositions, parsePosition, type Position } from '@portal/domain';
import type { Pool } from '@portal/platform';
import type { Sql } from '@portal/read-model-core';
import { quoteIdentifier } from '@portal/read-model-core';

/**
 * Where a dead letter's event stands: `open` — the checkpoint has not passed it and nobody resolved it,
 * so the projection stops there; `applied` or `skipped` — the operator resolved it (see `resolution`);
 * `passed` — the checkpoint went past it without the operator (the projector applied it after a fix).
 */
export type DeadLetterState = 'open' | 'applied' | 'skipped' | 'passed';

export interface DeadLetterResolution {
  readonly action: 'applied' | 'skipped';
  readonly reason: string | null;
  readonly operator: string;
  readonly resolvedAt: Date;
}

export interface DeadLetterRecord {
  readonly id: string;
  readonly projection: string;
  readonly eventId: string;
  readonly streamId: string;
  readonly revision: string;
  /** `formatPosition` of the event. */
  readonly position: string;
  readonly type: string;
  readonly error: string;
  readonly failedAt: Date;
  readonly state: DeadLetterState;
  readonly resolution: DeadLetterResolution | null;
}

interface DeadLetterRow {
  id: string;
  projection: string;
  event_id: string;
  stream_id: string;
  revision: string;
  position: string;
  type: string;
  error: string;
  failed_at: Date;
  action: 'applied' | 'skipped' | null;
  reason: string | null;
  operator: string | null;
  resolved_at: Date | null;
}

export interface DeadLetterSource {
  readonly operationsSchema: string;
  readonly projection: string;
}

function selectLetters(operationsSchema: string, where: string): string {
  const schema = quoteIdentifier(operationsSchema);
  return `
    SELECT d.id::text, d.projection, d.event_id, d.stream_id, d.revision::text, d.position, d.type, d.error,
           d.failed_at, r.action, r.reason, r.operator, r.resolved_at
      FROM ${schema}.dead_letters d
      LEFT JOIN ${schema}.dead_letter_resolutions r ON r.projection = d.projection AND r.event_id = d.event_id
     WHERE ${where}`;
}

function stateOf(row: DeadLetterRow, checkpoint: Position): DeadLetterState {
  if (row.action !== null) return row.action;
  const position = parsePosition(row.position);
  return position !== null && comparePositions(position, checkpoint) > 0 ? 'open' : 'passed';
}

function toRecord(row: DeadLetterRow, checkpoint: Position): DeadLetterRecord {
  return {
    id: row.id,
    projection: row.projection,
    eventId: row.event_id,
    streamId: row.stream_id,
    revision: row.revision,
    position: row.position,
    type: row.type,
    error: row.error,
    failedAt: row.failed_at,
    state: stateOf(row, checkpoint),
    resolution:
      row.action === null
        ? null
        : {
            action: row.action,
            reason: row.reason,
            operator: row.operator ?? '',
            resolvedAt: row.resolved_at ?? row.failed_at,
          },
  };
}

/**
 * The projection's dead letters, newest first, each with where its event stands against `checkpoint`.
 * An event that failed again after a restart has a row per failure.
 */
export async function listDeadLetters(
  pool: Pool,
  source: DeadLetterSource,
  checkpoint: Position,
  limit: number,
): Promise<DeadLetterRecord[]> {
  const result = await pool.query<DeadLetterRow>(
    `${selectLetters(source.operationsSchema, 'd.projection = $1')} ORDER BY d.id DESC LIMIT $2`,
    [source.projection, limit],
  );
  return result.rows.map((row) => toRecord(row, checkpoint));
}

/** One dead letter of the projection by id; `null` when there is none (or the id is not a number). */
export async function findDeadLetter(
  sql: Sql,
  source: DeadLetterSource,
  id: string,
  checkpoint: Position,
): Promise<DeadLetterRecord | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const result = await sql.query<DeadLetterRow>(
    selectLetters(source.operationsSchema, 'd.projection = $1 AND d.id = $2'),
    [source.projection, id],
  );
  const row = result.rows[0];
  return row ? toRecord(row, checkpoint) : null;
}

/** Ids of the events the operator skipped: a rebuild passes over them as the live projection did. */
export async function skippedEventIds(sql: Sql, source: DeadLetterSource): Promise<ReadonlySet<string>> {
  const result = await sql.query<{ event_id: string }>(
    `SELECT event_id FROM ${quoteIdentifier(source.operationsSchema)}.dead_letter_resolutions
      WHERE projection = $1 AND action = 'skipped'`,
    [source.projection],
  );
  return new Set(result.rows.map((row) => row.event_id));
}
