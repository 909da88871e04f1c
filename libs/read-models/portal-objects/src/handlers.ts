import {
  slugify,
  type ItemMetadata,
  type CatalogCreated,
  type CollectionCreated,
  type PortalObjectEvent,
  type PortalObjectUpdated,
  type RecordedEvent,
} from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { applyAccessEvent } from './access-handlers.js';
import { applyDelete } from './delete-statement.js';
import { applyItemEvent } from './item-handlers.js';
import { itemsExtentWithoutSql } from './collection-extent.js';
import { itemColumns, newObjectRow } from './new-object-row.js';
import { insertPlaced, placedInsertStatements } from './placed-insert.js';
import { applyMove } from './move-statement.js';
import { candidatePrefixes, renameCandidates, sendRename } from './rename-statement.js';
import { findObject, type ObjectRow } from './rows.js';
import { assignSlug } from './slug-assignment.js';

/**
 * Evolve on rows. Every statement that changes the object itself is guarded by `version < revision`,
 * and changes to other rows (parent counts, the subtree) are made only with it, so applying an event
 * twice changes nothing. Moves, deletes and access changes are one statement each (move-statement.ts,
 * delete-statement.ts, access-handlers.ts).
 */
export async function applyPortalObjectEvent(
  sql: Sql,
  event: PortalObjectEvent,
  recorded: RecordedEvent,
): Promise<void> {
  switch (event.type) {
    case 'CatalogCreated':
    case 'CollectionCreated':
      return created(sql, event, recorded);
    case 'PortalObjectUpdated':
      return updated(sql, event, recorded);
    case 'PortalObjectMoved':
      return applyMove(sql, event, recorded);
    case 'PortalObjectDeleted':
      return applyDelete(sql, event, recorded);
    case 'VisibilityChanged':
    case 'ObjectShared':
    case 'ObjectUnshared':
      return applyAccessEvent(sql, event, recorded);
    case 'ItemUploadStarted':
    case 'ItemRegistered':
    case 'UploadCompletionRequested':
    case 'AssetAttached':
    case 'UploadCompleted':
    case 'UploadFailed':
    case 'UploadAborted':
    case 'UploadExpired':
      return applyItemEvent(sql, event, recorded);
    default:
      return exhausted(event);
  }
}

function exhausted(event: never): never {
  throw new Error(`unhandled portal object event ${JSON.stringify(event)}`);
}

/** The insert of a catalog or collection (`$8` on: its own columns). */
export const createdInsert = placedInsertStatements({
  name: 'created',
  columns: [
    'kind',
    'status',
    'title',
    'description',
    'links',
    'license',
    'keywords',
    'extent',
    'version',
    'stac_id',
  ],
  values: ['$8', "'ready'", '$9', '$10', '$11::jsonb', '$12', '$13::jsonb', '$14::jsonb', '$15', '$16'],
  ownValues: (row) => [
    row.kind,
    row.title,
    row.description,
    row.links,
    row.license,
    row.keywords,
    row.extent,
    row.version,
    row.stacId,
  ],
});

function created(
  sql: Sql,
  event: CatalogCreated | CollectionCreated,
  recorded: RecordedEvent,
): Promise<void> {
  return insertPlaced(sql, createdInsert, newObjectRow(event, recorded));
}

/** The columns an item's metadata fills, as its create fills them (new-object-row.ts). */
function setMetadata(
  metadata: ItemMetadata,
  set: (column: string, value: unknown, cast?: string) => number,
): string {
  const columns = itemColumns(metadata);
  set('tags', columns.tags, '::jsonb');
  const bbox = set('bbox', columns.bbox, '::double precision[]');
  const geometry = set('geometry', columns.geometry, '::jsonb');
  set('datetime', columns.datetime, '::timestamptz');
  set('start_datetime', columns.startDatetime, '::timestamptz');
  set('end_datetime', columns.endDatetime, '::timestamptz');
  set('properties', columns.properties, '::jsonb');
  // The footprint from the new geometry, else the new bbox, as the create computes it (schema.sql).
  return `footprint = portal_footprint($${geometry}::jsonb, $${bbox}::double precision[])`;
}

/**
 * A ready item whose geometry or time changed may shrink its parent's extent as well as widen it: the
 * extent is recomputed from the parent's ready items (the same aggregate a delete uses). Idempotent.
 */
const recomputeParentExtentSql = `
  UPDATE portal_objects p
     SET items_bbox = e.box, items_start = e.starts, items_end = e.ends
    FROM portal_objects i,
         LATERAL (${itemsExtentWithoutSql('i.parent_id', "'00000000-0000-0000-0000-000000000000'::uuid", 'true')}) e
   WHERE i.id = $1 AND i.kind = 'item' AND i.status = 'ready' AND i.deleted_at IS NULL
     AND p.id = i.parent_id AND p.deleted_at IS NULL`;

async function recomputeParentExtent(sql: Sql, itemId: string): Promise<void> {
  await sql.query({
    name: 'projector_portal_objects_recompute_parent_extent',
    text: recomputeParentExtentSql,
    values: [itemId],
  });
}

/**
 * The row an event changes, locked, or `null` when the event is already applied. A missing row is a
 * broken read model (its create was projected before this event), so it fails loudly rather than being skipped.
 */
async function targetOf(
  sql: Sql,
  event: PortalObjectUpdated,
  recorded: RecordedEvent,
): Promise<ObjectRow | null> {
  const row = await findObject(sql, event.data.id, { forUpdate: true });
  if (!row) throw new Error(`${event.data.kind} ${event.data.id} is not in the read model`);
  return row.version < recorded.revision ? row : null;
}

async function updated(sql: Sql, event: PortalObjectUpdated, recorded: RecordedEvent): Promise<void> {
  const { changes } = event.data;
  if (changes.title !== undefined) {
    // The common case in one round trip: the slug among the title's first candidates.
    const { assignments, values } = changedColumns(changes, 6);
    const base = slugify(changes.title);
    const outcome = await sendRename(sql, event.data, assignments, [
      event.data.id,
      recorded.revision.toString(),
      recorded.metadata.occurredAt,
      renameCandidates(base),
      candidatePrefixes(base),
      ...values,
    ]);
    if (outcome === 'already applied') return;
    if (outcome === 'applied') {
      if (changes.metadata !== undefined) await recomputeParentExtent(sql, event.data.id);
      return;
    }
  }
  const row = await targetOf(sql, event, recorded);
  if (!row) return;
  const { assignments, values } = changedColumns(changes, 4);
  if (changes.title !== undefined) {
    const base = slugify(changes.title);
    const request = { parentId: row.parentId, orgId: row.orgId, base, objectId: row.id, current: row.slug };
    values.push(await assignSlug(sql, request));
    assignments.push(`slug = $${values.length + 3}`);
  }
  await sql.query(
    `UPDATE portal_objects SET version = $2, updated_at = $3${assignments.map((assignment) => `, ${assignment}`).join('')}
      WHERE id = $1 AND version < $2`,
    [row.id, recorded.revision.toString(), recorded.metadata.occurredAt, ...values],
  );
  if (changes.metadata !== undefined) await recomputeParentExtent(sql, row.id);
}

/**
 * The assignments of the columns an update changes (the slug aside), their values numbered from
 * `firstParameter` on.
 */
function changedColumns(
  changes: PortalObjectUpdated['data']['changes'],
  firstParameter: number,
): { assignments: string[]; values: unknown[] } {
  const values: unknown[] = [];
  const assignments: string[] = [];
  const set = (column: string, value: unknown, cast = ''): number => {
    values.push(value);
    const parameter = firstParameter + values.length - 1;
    assignments.push(`${column} = $${parameter}${cast}`);
    return parameter;
  };
  if (changes.title !== undefined) set('title', changes.title);
  if (changes.description !== undefined) set('description', changes.description);
  if (changes.links !== undefined) set('links', JSON.stringify(changes.links), '::jsonb');
  if (changes.license !== undefined) set('license', changes.license);
  if (changes.keywords !== undefined) set('keywords', JSON.stringify(changes.keywords), '::jsonb');
  if (changes.extent !== undefined)
    set('extent', changes.extent && JSON.stringify(changes.extent), '::jsonb');
  if (changes.assets !== undefined) set('href_assets', JSON.stringify(changes.assets), '::jsonb');
  if (changes.metadata !== undefined) assignments.push(setMetadata(changes.metadata, set));
  return { assignments, values };
}
