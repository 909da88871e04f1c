import type { Pool } from '@portal/platform';
import { HttpProblem } from '../http/problem.js';
import { decodeCursor, encodeCursor } from '../read-model/cursor.js';

const POSITION = /^\d{1,20}\.\d{1,20}$/;

function invalidCursor(): HttpProblem {
  return new HttpProblem(400, 'cursor: not a cursor returned by this API', 'INVALID_CURSOR');
}

/**
 * The cursor names the last event returned by its position, which a rebuild keeps (it renumbers `seq`),
 * so a client paging through an export is not thrown off by a rebuild between two pages.
 */
export function auditCursorOf(position: string): string {
  return encodeCursor([position]);
}

/**
 * The `seq` after which the page starts: the cursor's event in the caller's organization's feed. A
 * cursor of another organization's feed, or not written by this API, answers 400.
 */
export async function seqAfterCursor(pool: Pool, orgId: string, cursor: string | undefined): Promise<string> {
  if (cursor === undefined) return '0';
  const [position] = decodeCursor(cursor, 1);
  if (typeof position !== 'string' || !POSITION.test(position)) throw invalidCursor();
  const found = await pool.query<{ seq: string }>(
    'SELECT seq::text FROM read.audit_events WHERE position = $1 AND org_id = $2',
    [position, orgId],
  );
  const seq = found.rows[0]?.seq;
  if (seq === undefined) throw invalidCursor();
  return seq;
}
