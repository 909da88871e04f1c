import type { PortalObjectUpdated, RecordedEvent } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { itemsExtentWithoutSql } from './collection-extent.js';
import {
  changedColumnArrays,
  changedColumnAssignments,
  changedColumnNames,
  changedColumnValues,
} from './update-columns.js';

/**
 * Every update of a run in one statement (a title goes alone: it takes a slug): each row takes the
 * fields its event changed (a flag per field says which; the others keep their value), an item its
 * whole metadata and the footprint from it, and its revision, guarded by `version < revision` as the
 * single update is. No object appears twice in a run. Lists the items whose metadata it changed, and
 * the objects the read model lacks.
 */
const updateRun = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[], ${changedColumnArrays(4)})
                  AS u(id, revision, at, ${changedColumnNames})
  ), changed AS (
    UPDATE portal_objects o
       SET version = u.revision, updated_at = u.at,
           ${changedColumnAssignments}
      FROM input u
     WHERE o.id = u.id AND o.version < u.revision
    RETURNING o.id, u.set_metadata
  )
  SELECT id, true AS metadata FROM changed WHERE set_metadata
  UNION ALL
  SELECT u.id, false FROM input u WHERE NOT EXISTS (SELECT 1 FROM portal_objects o WHERE o.id = u.id)`;

/** Applies the updates of a run; answers the items whose metadata changed (their parents' extents are due). */
export async function updateRunObjects(
  sql: Sql,
  updates: readonly (readonly [PortalObjectUpdated, RecordedEvent])[],
): Promise<string[]> {
  if (updates.length === 0) return [];
  const values: unknown[] = [
    updates.map(([event]) => event.data.id),
    updates.map(([, recorded]) => recorded.revision.toString()),
    updates.map(([, recorded]) => recorded.metadata.occurredAt),
    ...changedColumnValues(updates),
  ];
  const result = await sql.query<{ id: string; metadata: boolean }>({
    name: 'projector_portal_objects_update_run',
    text: updateRun,
    values,
  });
  const missing = result.rows.find((row) => !row.metadata);
  if (missing) throw new Error(`object ${missing.id} is not in the read model`);
  return result.rows.map(({ id }) => id);
}

/**
 * The extents of the parents of ready items whose metadata a run changed, recomputed from their ready
 * items (a changed bbox or time may shrink one), as the single update recomputes it (handlers.ts); once
 * per parent however many of its items changed.
 */
const recomputeExtentsSql = `
  UPDATE portal_objects p
     SET items_bbox = e.box, items_start = e.starts, items_end = e.ends
    FROM (SELECT DISTINCT parent_id FROM portal_objects
           WHERE id = ANY($1::uuid[]) AND kind = 'item' AND status = 'ready' AND deleted_at IS NULL) i,
         LATERAL (${itemsExtentWithoutSql('i.parent_id', "'00000000-0000-0000-0000-000000000000'::uuid", 'true')}) e
   WHERE p.id = i.parent_id AND p.deleted_at IS NULL`;

export async function recomputeExtentsOfUpdated(sql: Sql, itemIds: readonly string[]): Promise<void> {
  if (itemIds.length === 0) return;
  await sql.query({
    name: 'projector_portal_objects_recompute_extents_run',
    text: recomputeExtentsSql,
    values: [itemIds],
  });
}
