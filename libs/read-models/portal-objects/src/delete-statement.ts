import type { PortalObjectDeleted, RecordedEvent } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { itemsExtentWithoutSql } from './collection-extent.js';
import { descendantIds, statementCall, type StatementFunction } from './statement-function.js';

/**
 * A delete, plain or recursive, in one statement: `$1` id, `$2` revision, `$3` occurredAt. The object
 * becomes a tombstone (guarded by its version: applied twice, it changes nothing); its live parent loses
 * a live child and, when the object was a ready item, gets its extent recomputed from the items staying.
 *
 * Descendants get no events of their own: every live one is tombstoned here too, through the
 * ancestor_ids GIN index, keeping its own version. A plain delete buries the subtree as well: the API
 * refused it if the tree read model had children, so any found here were created in a race with the
 * delete, and reads must agree with commands, which see them under a deleted ancestor. A leaf (no live
 * child: then no live descendant either, since whatever lands below a tombstone is buried) skips that.
 */
function deleteSql(buried: string): string {
  return `
  WITH target AS (
    SELECT o.id, o.parent_id, o.version, o.child_count, o.deleted_at IS NOT NULL AS deleted,
           o.kind = 'item' AND o.status = 'ready' AND o.deleted_at IS NULL AS in_extent
      FROM portal_objects o WHERE o.id = $1
  ), go AS (
    SELECT * FROM target WHERE version < $2
  ), tombstoned AS (
    UPDATE portal_objects o
       SET deleted_at = COALESCE(o.deleted_at, $3::timestamptz), child_count = 0, version = $2::bigint,
           updated_at = $3::timestamptz
      FROM go WHERE o.id = go.id
  )${buried}, parent AS (
    UPDATE portal_objects p
       SET child_count = p.child_count - 1,
           items_bbox = CASE WHEN g.in_extent THEN r.box ELSE p.items_bbox END,
           items_start = CASE WHEN g.in_extent THEN r.starts ELSE p.items_start END,
           items_end = CASE WHEN g.in_extent THEN r.ends ELSE p.items_end END
      FROM go g CROSS JOIN LATERAL (${itemsExtentWithoutSql('g.parent_id', 'g.id', 'g.in_extent')}) r
     WHERE p.id = g.parent_id AND NOT g.deleted AND p.deleted_at IS NULL
  )
  SELECT EXISTS (SELECT 1 FROM target) AS known`;
}

/** Every live row below the object (`below`: the condition on `o` that finds them) becomes a tombstone. */
function buryDescendants(below: string): string {
  return `, buried AS (
    UPDATE portal_objects o SET deleted_at = $3::timestamptz, child_count = 0
      FROM go
     WHERE go.child_count > 0 AND ${below} AND o.deleted_at IS NULL
  )`;
}

export const deleteFunction: StatementFunction = {
  name: 'portal_delete_object',
  parameters: ['uuid', 'bigint', 'timestamptz'],
  returns: 'known boolean',
  body: deleteSql(buryDescendants('o.ancestor_ids @> ARRAY[$1::uuid]')),
  // A leaf's array is empty: nothing to bury.
  keyedBody: deleteSql(buryDescendants(`o.id = ANY(${descendantIds})`)),
};
const deleteCall = statementCall(deleteFunction);

export async function applyDelete(
  sql: Sql,
  event: PortalObjectDeleted,
  recorded: RecordedEvent,
): Promise<void> {
  const { id, kind } = event.data;
  const result = await sql.query<{ known: boolean }>({
    ...deleteCall,
    values: [id, recorded.revision.toString(), recorded.metadata.occurredAt],
  });
  if (result.rows[0]?.known !== true) throw new Error(`${kind} ${id} is not in the read model`);
}
