import type { PortalObjectDeleted, RecordedEvent } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { itemsExtentWithoutSql } from './collection-extent.js';
import { applyDelete } from './delete-statement.js';
import { onePerObject } from './one-per-object.js';

/**
 * Every leaf delete of a run in one statement: the leaf body of the single delete (delete-statement.ts)
 * for each row of `unnest`, its parents' updates combined. `$1` ids, `$2` revisions, `$3` occurredAt.
 * Each object becomes a tombstone (guarded by its version); each live parent loses as many live children
 * as the run deletes below it and, when any of them was a ready item, gets its extent recomputed from the
 * ready items staying (all of the run's left out: they are still live in the statement's snapshot), which
 * is what the last of the single deletes gives it.
 *
 * An object with live children (the caller thought it a leaf) is left to the single delete, which buries
 * them; so is nothing else. Answers those, and the objects the read model lacks.
 */
const deleteRun = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[]) AS u(id, revision, at)
  ), target AS (
    SELECT u.id, u.revision, u.at, o.parent_id, o.version, o.child_count, o.deleted_at IS NOT NULL AS deleted,
           o.kind = 'item' AND o.status = 'ready' AND o.deleted_at IS NULL AS in_extent
      FROM input u JOIN portal_objects o ON o.id = u.id
  ), go AS (
    SELECT * FROM target WHERE version < revision AND child_count = 0
  ), tombstoned AS (
    UPDATE portal_objects o
       SET deleted_at = COALESCE(o.deleted_at, g.at), child_count = 0, version = g.revision, updated_at = g.at
      FROM go g WHERE o.id = g.id
  ), leaving AS (
    SELECT parent_id, count(*)::integer AS children, bool_or(in_extent) AS in_extent, array_agg(id) AS ids
      FROM go WHERE NOT deleted AND parent_id IS NOT NULL GROUP BY parent_id
  ), parent AS (
    UPDATE portal_objects p
       SET child_count = p.child_count - l.children,
           items_bbox = CASE WHEN l.in_extent THEN r.box ELSE p.items_bbox END,
           items_start = CASE WHEN l.in_extent THEN r.starts ELSE p.items_start END,
           items_end = CASE WHEN l.in_extent THEN r.ends ELSE p.items_end END
      FROM leaving l CROSS JOIN LATERAL (${itemsExtentWithoutSql('l.parent_id', 'ALL(l.ids)', 'l.in_extent')}) r
     WHERE p.id = l.parent_id AND p.deleted_at IS NULL
  )
  SELECT id, 'not a leaf' AS due FROM target WHERE version < revision AND child_count > 0
  UNION ALL
  SELECT u.id, 'missing' FROM input u WHERE NOT EXISTS (SELECT 1 FROM target t WHERE t.id = u.id)`;

type DeleteDue = 'not a leaf' | 'missing';

/**
 * Applies the deletes of a run's leaves, leaving the rows that applying each through the single delete
 * (`applyDelete`) in event order leaves. What the caller guarantees:
 * - each deleted object has no row below it when the run starts (an object with live children is still
 *   applied right, by the single delete after the statement, but costs its own statement);
 * - no two deletes are of the same object;
 * - nothing else in the run changes the deleted rows, nor their parents' place or tombstone (the parents'
 *   child counts and extents may be shared: several deletes below one parent combine, and the run's other
 *   changes to them commute, a child count by addition, an extent by widening or recomputing last).
 * A delete applied before (its version at or past the revision) changes nothing, as one by one.
 */
export async function applyLeafDeletesInRun(
  sql: Sql,
  deletes: readonly (readonly [PortalObjectDeleted, RecordedEvent])[],
): Promise<void> {
  if (deletes.length === 0) return;
  onePerObject(deletes, (id) => `two deletes of ${id} in one run`);
  const result = await sql.query<{ id: string; due: DeleteDue }>({
    name: 'projector_portal_objects_delete_leaves_run',
    text: deleteRun,
    values: [
      deletes.map(([event]) => event.data.id),
      deletes.map(([, recorded]) => recorded.revision.toString()),
      deletes.map(([, recorded]) => recorded.metadata.occurredAt),
    ],
  });
  const due = (kind: DeleteDue): Set<string> =>
    new Set(result.rows.filter((row) => row.due === kind).map((row) => row.id));
  const missing = deletes.find(([event]) => due('missing').has(event.data.id));
  if (missing) throw new Error(`${missing[0].data.kind} ${missing[0].data.id} is not in the read model`);
  const notLeaves = due('not a leaf');
  for (const [event, recorded] of deletes) {
    if (notLeaves.has(event.data.id)) await applyDelete(sql, event, recorded);
  }
}
