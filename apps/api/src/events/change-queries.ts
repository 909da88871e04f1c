import type { Pool } from '@portal/platform';
import type { ChangeRow } from '@portal/read-model-audit';
import { readableBy } from '@portal/read-model-portal-objects';

/** Where the hub has read up to. `position` survives a rebuild (which renumbers `seq`); `seq` is the fallback. */
export interface FeedCursor {
  readonly seq: bigint;
  readonly position: string | null;
}

export const START_CURSOR: FeedCursor = { seq: 0n, position: null };

const CHANGE_COLUMNS = `a.seq, a.position, a.type, a.object_id, o.kind, a.revision, a.occurred_at, a.actor_id,
       o.read_principals`;

/** The newest event, where a hub that starts now begins. */
export async function readHead(pool: Pool): Promise<FeedCursor> {
  const result = await pool.query<{ seq: string; position: string }>(
    'SELECT seq, position FROM read.audit_events ORDER BY seq DESC LIMIT 1',
  );
  const row = result.rows[0];
  return row ? { seq: BigInt(row.seq), position: row.position } : START_CURSOR;
}

/**
 * The next object events after the cursor, for every client at once. The cursor's position is looked up
 * again each time, so after a rebuild swapped in renumbered rows the hub carries on from the same event.
 */
export async function readChangesAfter(pool: Pool, cursor: FeedCursor, limit: number): Promise<ChangeRow[]> {
  const result = await pool.query<ChangeRow>({
    name: 'events_changes_after',
    text: `SELECT ${CHANGE_COLUMNS}
      FROM read.audit_events a
      JOIN read.portal_objects o ON o.id = a.object_id
     WHERE a.seq > COALESCE((SELECT seq FROM read.audit_events WHERE position = $1), $2::bigint)
       AND a.object_id IS NOT NULL
     ORDER BY a.seq
     LIMIT $3`,
    values: [cursor.position, cursor.seq.toString(), limit],
  });
  return result.rows;
}

export interface ResumePoint {
  readonly seq: bigint;
  /** Object events after it, counted up to the replay bound plus one. */
  readonly behind: number;
}

/** Where `Last-Event-ID` points, and how far behind it is; `null` for a position the table does not hold. */
export async function findResumePoint(
  pool: Pool,
  position: string,
  maxEvents: number,
): Promise<ResumePoint | null> {
  const result = await pool.query<{ seq: string; behind: string }>({
    name: 'events_resume_point',
    text: `SELECT a.seq,
           (SELECT count(*) FROM (SELECT 1 FROM read.audit_events b
                                   WHERE b.seq > a.seq AND b.object_id IS NOT NULL LIMIT $2) AS missed) AS behind
      FROM read.audit_events a
     WHERE a.position = $1`,
    values: [position, maxEvents + 1],
  });
  const row = result.rows[0];
  return row ? { seq: BigInt(row.seq), behind: Number(row.behind) } : null;
}

/** One page of what a resuming client missed, filtered by its principals in SQL. */
export async function readMissedChanges(
  pool: Pool,
  afterSeq: bigint,
  principals: readonly string[],
  limit: number,
): Promise<ChangeRow[]> {
  const result = await pool.query<ChangeRow>({
    name: 'events_missed_changes',
    text: `SELECT ${CHANGE_COLUMNS}
      FROM read.audit_events a
      JOIN read.portal_objects o ON o.id = a.object_id
     WHERE a.seq > $1 AND a.object_id IS NOT NULL AND ${readableBy('o', '$2::text[]')}
     ORDER BY a.seq
     LIMIT $3`,
    values: [afterSeq.toString(), principals, limit],
  });
  return result.rows;
}
