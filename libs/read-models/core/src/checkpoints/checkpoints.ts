import { readFileSync } from 'node:fs';
import { formatPosition, START, type Position } from '@portal/domain';
import { quoteIdentifier } from '../sql-identifier.js';
import type { Sql } from '../projection.js';

export const projectionCheckpointsDdl = readFileSync(new URL('./schema.sql', import.meta.url), 'utf8');

interface CheckpointRow {
  commit_position: string;
  prepare_position: string;
}

function toPosition(row: CheckpointRow): Position {
  return { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
}

/** Creates the projection's row at `START` unless it exists; runs with `search_path` on the read schema. */
export async function initCheckpoint(sql: Sql, name: string): Promise<void> {
  await sql.query(
    `INSERT INTO projection_checkpoints (name, commit_position, prepare_position) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO NOTHING`,
    [name, START.commit.toString(), START.prepare.toString()],
  );
}

/**
 * Where projection `name` stands in `schema` (normally `read`): every event at or before it is applied.
 * `START` when the projection never ran. Other apps may call this; they can also read the table directly.
 */
export async function readCheckpoint(sql: Sql, options: { schema: string; name: string }): Promise<Position> {
  const result = await sql.query<CheckpointRow>(
    `SELECT commit_position::text, prepare_position::text
       FROM ${quoteIdentifier(options.schema)}.projection_checkpoints WHERE name = $1`,
    [options.name],
  );
  const row = result.rows[0];
  return row ? toPosition(row) : START;
}

/**
 * Reads and row-locks the checkpoint at the start of a batch transaction. Taking the lock first means a
 * rebuild's swap (which locks the table) either waits for this batch or happens before it, never between
 * our handlers and our checkpoint write. Runs with `search_path` on the read schema.
 */
export async function lockCheckpoint(sql: Sql, name: string): Promise<Position> {
  const result = await sql.query<CheckpointRow>(
    `SELECT commit_position::text, prepare_position::text FROM projection_checkpoints WHERE name = $1 FOR UPDATE`,
    [name],
  );
  const row = result.rows[0];
  if (!row) throw new Error(`checkpoint row "${name}" is missing: the read schema was not set up`);
  return toPosition(row);
}

/** Moves the checkpoint only if it still holds `expected`; `false` means someone else moved it. */
export async function compareAndSetCheckpoint(
  sql: Sql,
  name: string,
  expected: Position,
  next: Position,
): Promise<boolean> {
  const result = await sql.query(
    `UPDATE projection_checkpoints
        SET commit_position = $2, prepare_position = $3, updated_at = now()
      WHERE name = $1 AND commit_position = $4 AND prepare_position = $5`,
    [
      name,
      next.commit.toString(),
      next.prepare.toString(),
      expected.commit.toString(),
      expected.prepare.toString(),
    ],
  );
  return result.rowCount === 1;
}

/** A string as an SQL literal, for the batch's own statements sent without parameters. */
function literal(text: string): string {
  if (text.includes('\0')) throw new Error('an SQL literal cannot hold a NUL character');
  return `'${text.replaceAll("'", "''")}'`;
}

function isQueryResultList(value: unknown): value is { rows: CheckpointRow[] }[] {
  return Array.isArray(value);
}

/**
 * Opens a batch transaction in one round trip: `BEGIN`, `search_path` on the read schema (and, when
 * asked, a custom plan for every statement), and the checkpoint read and row-locked (see
 * `lockCheckpoint`). Returns where the checkpoint stands. Several statements in one query cannot take
 * parameters: every value here is a quoted identifier or literal.
 *
 * JIT is off for the batch: every projector statement finds its rows by key, and a cost estimate past
 * the server's `jit_above_cost` (a subtree's share lists count as 100 rows each) made PostgreSQL
 * compile for 80–120 ms a statement that ran in 45 (docs/projection.md, "Moves, deletes and access
 * changes: one statement each").
 */
export async function openBatchTransaction(
  sql: Sql,
  options: { readonly schema: string; readonly name: string; readonly customPlans: boolean },
): Promise<Position> {
  const plans = options.customPlans ? 'SET LOCAL plan_cache_mode = force_custom_plan;' : '';
  const results: unknown = await sql.query(
    `BEGIN; SET LOCAL search_path TO ${quoteIdentifier(options.schema)}, public; SET LOCAL jit = off; ${plans}
     SELECT commit_position::text, prepare_position::text FROM projection_checkpoints
      WHERE name = ${literal(options.name)} FOR UPDATE`,
  );
  const row = isQueryResultList(results) ? results.at(-1)?.rows[0] : undefined;
  if (!row) throw new Error(`checkpoint row "${options.name}" is missing: the read schema was not set up`);
  return toPosition(row);
}

/**
 * Closes a batch transaction in one round trip: moves the checkpoint from `expected` to `next` (raising
 * if it is no longer at `expected`, which aborts the rest), notifies `channel` of the new position and
 * commits. The notification is delivered on commit only.
 */
export async function commitBatchTransaction(
  sql: Sql,
  options: {
    readonly name: string;
    readonly expected: Position;
    readonly next: Position;
    readonly channel: string | null;
    /** Channels of the signals the batch raised: notified before `channel`, never without it. */
    readonly signals?: readonly string[];
  },
): Promise<void> {
  const { name, expected, next, channel } = options;
  const advance = `SELECT projection_checkpoint_advance(${literal(name)}, ${expected.commit}, ${expected.prepare}, ${next.commit}, ${next.prepare})`;
  const notify =
    channel === null
      ? ''
      : [
          // Signals first: a listener has heard them when the position wakes a request waiting for it.
          ...(options.signals ?? []).map((signal) => `SELECT pg_notify(${literal(signal)}, '');`),
          `SELECT pg_notify(${literal(channel)}, ${literal(formatPosition(next))});`,
        ].join(' ');
  await sql.query(`${advance}; ${notify} COMMIT`);
}
