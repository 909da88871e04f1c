import type { PortalObjectChanges, PortalObjectUpdated, RecordedEvent } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { itemsExtentWithoutSql } from './collection-extent.js';
import { itemColumns } from './new-object-row.js';

/** The fields an update of a run may change (a title goes alone: it takes a slug). */
type RunField = Exclude<keyof PortalObjectChanges, 'title' | 'metadata'>;

/** Each field: its column, how its value travels, and whether it is stored as JSON. */
const fields: readonly (readonly [RunField, string, 'text' | 'jsonb'])[] = [
  ['description', 'description', 'text'],
  ['links', 'links', 'jsonb'],
  ['license', 'license', 'text'],
  ['keywords', 'keywords', 'jsonb'],
  ['extent', 'extent', 'jsonb'],
  ['assets', 'href_assets', 'jsonb'],
];

type ItemColumns = ReturnType<typeof itemColumns>;

/** An item's metadata columns, as its create fills them (new-object-row.ts); all set together. */
const metadataColumns: readonly (readonly [string, string, (columns: ItemColumns) => unknown])[] = [
  ['tags', 'jsonb', (columns) => columns.tags],
  // An array per row cannot travel in an array of arrays (PostgreSQL's are rectangular): as its literal.
  ['bbox', 'text', (columns) => (columns.bbox ? `{${columns.bbox.join(',')}}` : null)],
  ['geometry', 'jsonb', (columns) => columns.geometry],
  ['datetime', 'timestamptz', (columns) => columns.datetime],
  ['start_datetime', 'timestamptz', (columns) => columns.startDatetime],
  ['end_datetime', 'timestamptz', (columns) => columns.endDatetime],
  ['properties', 'jsonb', (columns) => columns.properties],
];

const firstMetadataParameter = 2 * fields.length + 4;

/**
 * Every update of a run in one statement: each row takes the fields its event changed (a flag per
 * field says which; the others keep their value), an item its whole metadata and the footprint from
 * it, and its revision, guarded by `version < revision` as the single update is. No object appears
 * twice in a run. Lists the items whose metadata it changed, and the objects the read model lacks.
 */
const updateRun = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[],
                         ${fields.map(([, , type], index) => `$${2 * index + 4}::boolean[], $${2 * index + 5}::${type}[]`).join(', ')},
                         $${firstMetadataParameter}::boolean[],
                         ${metadataColumns.map(([, type], index) => `$${firstMetadataParameter + 1 + index}::${type}[]`).join(', ')})
                  AS u(id, revision, at, ${fields.map(([, column]) => `set_${column}, ${column}`).join(', ')},
                       set_metadata, ${metadataColumns.map(([column]) => column).join(', ')})
  ), changed AS (
    UPDATE portal_objects o
       SET version = u.revision, updated_at = u.at,
           ${fields.map(([, column]) => `${column} = CASE WHEN u.set_${column} THEN u.${column} ELSE o.${column} END`).join(',\n           ')},
           ${metadataColumns.map(([column, type]) => `${column} = CASE WHEN u.set_metadata THEN ${type === 'text' ? `u.${column}::double precision[]` : column === 'tags' ? `COALESCE(u.tags, '[]')` : `u.${column}`} ELSE o.${column} END`).join(',\n           ')},
           -- From the new geometry, else the new bbox, as the create computes it (schema.sql).
           footprint = CASE WHEN NOT u.set_metadata THEN o.footprint
                            WHEN u.geometry IS NOT NULL OR u.bbox IS NOT NULL
                            THEN portal_footprint(u.geometry, u.bbox::double precision[]) END
      FROM input u
     WHERE o.id = u.id AND o.version < u.revision
    RETURNING o.id, u.set_metadata
  )
  SELECT id, true AS metadata FROM changed WHERE set_metadata
  UNION ALL
  SELECT u.id, false FROM input u WHERE NOT EXISTS (SELECT 1 FROM portal_objects o WHERE o.id = u.id)`;

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

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
  ];
  for (const [field, , type] of fields) {
    values.push(updates.map(([event]) => event.data.changes[field] !== undefined));
    values.push(
      updates.map(([event]) => {
        const value = event.data.changes[field];
        return type === 'jsonb' ? jsonOrNull(value) : (value ?? null);
      }),
    );
  }
  const metadataOf = updates.map(([event]) => {
    const { metadata } = event.data.changes;
    return metadata === undefined ? null : itemColumns(metadata);
  });
  values.push(metadataOf.map((columns) => columns !== null));
  for (const [, , value] of metadataColumns) {
    values.push(metadataOf.map((columns) => (columns === null ? null : value(columns))));
  }
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
