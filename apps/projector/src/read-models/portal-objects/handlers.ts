import {
  slugify,
  type CatalogCreated,
  type CollectionCreated,
  type PortalObjectDeleted,
  type PortalObjectEvent,
  type PortalObjectMoved,
  type PortalObjectUpdated,
  type RecordedEvent,
} from '@portal/domain';
import type { Sql } from '../../projection.js';
import { applyAccessEvent } from './access-handlers.js';
import { addReadyItemToParentExtent, recomputeItemsExtent } from './collection-extent.js';
import { applyItemEvent } from './item-handlers.js';
import { newObjectRow } from './new-object-row.js';
import { insertPlaced, placedInsertStatements } from './placed-insert.js';
import { adjustChildCount, anyTombstoneAmong, findObject, type ObjectRow } from './rows.js';
import { assignSlug } from './slug-assignment.js';
import { recomputeSubtreeAccess } from './subtree-access.js';

/**
 * Evolve on rows. Every statement that changes the object itself is guarded by `version < revision`,
 * and changes to other rows (parent counts, the subtree) follow only when that statement touched the
 * row, so applying an event twice changes nothing.
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
      return moved(sql, event, recorded);
    case 'PortalObjectDeleted':
      return deleted(sql, event, recorded);
    case 'VisibilityChanged':
    case 'ObjectShared':
    case 'ObjectUnshared':
      return applyAccessEvent(sql, event, recorded);
    case 'ItemUploadStarted':
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

interface Placement {
  readonly ancestorIds: readonly string[];
  readonly depth: number;
  /** The parent or one of its ancestors is a tombstone: whatever lands here is buried with it. */
  readonly underTombstone: boolean;
}

async function placementUnder(sql: Sql, parentId: string | null, childId: string): Promise<Placement> {
  if (parentId === null) return { ancestorIds: [], depth: 1, underTombstone: false };
  const parent = await findObject(sql, parentId, { forUpdate: false });
  if (!parent) throw new Error(`parent ${parentId} of ${childId} is not in the read model`);
  return {
    ancestorIds: [...parent.ancestorIds, parent.id],
    depth: parent.depth + 1,
    underTombstone: parent.deleted || (await anyTombstoneAmong(sql, parent.ancestorIds)),
  };
}

/** The insert of a catalog or collection (`$8` on: its own columns). */
export const createdInsert = placedInsertStatements({
  name: 'created',
  columns: ['kind', 'status', 'title', 'description', 'links', 'license', 'keywords', 'extent', 'version'],
  values: ['$8', "'ready'", '$9', '$10', '$11::jsonb', '$12', '$13::jsonb', '$14::jsonb', '$15'],
  ownValues: (row) => [
    row.kind,
    row.title,
    row.description,
    row.links,
    row.license,
    row.keywords,
    row.extent,
    row.version,
  ],
});

function created(
  sql: Sql,
  event: CatalogCreated | CollectionCreated,
  recorded: RecordedEvent,
): Promise<void> {
  return insertPlaced(sql, createdInsert, newObjectRow(event, recorded));
}

/**
 * The row an event changes, locked, or `null` when the event is already applied. A missing row is a
 * broken read model (its create was projected before this event), so it fails loudly rather than being skipped.
 */
async function targetOf(
  sql: Sql,
  event: PortalObjectUpdated | PortalObjectMoved | PortalObjectDeleted,
  recorded: RecordedEvent,
): Promise<ObjectRow | null> {
  const row = await findObject(sql, event.data.id, { forUpdate: true });
  if (!row) throw new Error(`${event.data.kind} ${event.data.id} is not in the read model`);
  return row.version < recorded.revision ? row : null;
}

/** A ready item that was live counts in its parent's computed extent. */
function countsInExtent(row: ObjectRow): boolean {
  return row.kind === 'item' && row.status === 'ready' && !row.deleted;
}

async function updated(sql: Sql, event: PortalObjectUpdated, recorded: RecordedEvent): Promise<void> {
  const row = await targetOf(sql, event, recorded);
  if (!row) return;
  const { changes } = event.data;
  const values: unknown[] = [row.id, recorded.revision.toString(), recorded.metadata.occurredAt];
  const assignments = ['version = $2', 'updated_at = $3'];
  const set = (column: string, value: unknown, cast = ''): void => {
    values.push(value);
    assignments.push(`${column} = $${values.length}${cast}`);
  };
  if (changes.title !== undefined) {
    set('title', changes.title);
    const base = slugify(changes.title);
    const request = { parentId: row.parentId, orgId: row.orgId, base, objectId: row.id, current: row.slug };
    set('slug', await assignSlug(sql, request));
  }
  if (changes.description !== undefined) set('description', changes.description);
  if (changes.links !== undefined) set('links', JSON.stringify(changes.links), '::jsonb');
  if (changes.license !== undefined) set('license', changes.license);
  if (changes.keywords !== undefined) set('keywords', JSON.stringify(changes.keywords), '::jsonb');
  if (changes.extent !== undefined)
    set('extent', changes.extent && JSON.stringify(changes.extent), '::jsonb');
  await sql.query(
    `UPDATE portal_objects SET ${assignments.join(', ')} WHERE id = $1 AND version < $2`,
    values,
  );
}

async function moved(sql: Sql, event: PortalObjectMoved, recorded: RecordedEvent): Promise<void> {
  const row = await targetOf(sql, event, recorded);
  if (!row) return;
  const { toParentId } = event.data;
  const placement = await placementUnder(sql, toParentId, row.id);
  // The command side refuses a move below a tombstone, but any event order must project the same way:
  // the subtree is buried there as if the tombstone's delete had cascaded over it, and a buried row
  // keeps its slug, since a tombstone is outside the live siblings' slug index.
  const buried = placement.underTombstone;
  const slug = buried
    ? row.slug
    : await assignSlug(sql, {
        parentId: toParentId,
        orgId: row.orgId,
        base: slugify(row.title),
        objectId: row.id,
        current: row.slug,
      });
  const at = recorded.metadata.occurredAt;
  const touched = await sql.query(
    `UPDATE portal_objects
        SET parent_id = $3, ancestor_ids = $4::uuid[], depth = $5, slug = $6, version = $2, updated_at = $7,
            deleted_at = CASE WHEN $8::boolean THEN COALESCE(deleted_at, $7) ELSE deleted_at END,
            child_count = CASE WHEN $8::boolean THEN 0 ELSE child_count END
      WHERE id = $1 AND version < $2`,
    [
      row.id,
      recorded.revision.toString(),
      toParentId,
      placement.ancestorIds,
      placement.depth,
      slug,
      at,
      buried,
    ],
  );
  if (touched.rowCount !== 1) return;
  // Every descendant's path starts with the old path of the moved object; swap that prefix in one
  // statement, and bury the live ones (keeping their own version, like a recursive delete) in the same pass.
  const newPrefix = [...placement.ancestorIds, row.id];
  const oldPrefixLength = row.ancestorIds.length + 1;
  await sql.query(
    `UPDATE portal_objects
        SET ancestor_ids = $2::uuid[] || ancestor_ids[$3 + 1:],
            depth = cardinality($2::uuid[]) + cardinality(ancestor_ids) - $3 + 1,
            deleted_at = CASE WHEN $4::boolean THEN COALESCE(deleted_at, $5::timestamptz) ELSE deleted_at END,
            child_count = CASE WHEN $4::boolean THEN 0 ELSE child_count END
      WHERE ancestor_ids @> ARRAY[$1::uuid]`,
    [row.id, newPrefix, oldPrefixLength, buried, at],
  );
  // The new parent's path passes its visibility and shares on to the whole subtree.
  await recomputeSubtreeAccess(sql, row.id);
  if (row.deleted) return;
  await adjustChildCount(sql, row.parentId, -1);
  if (!buried) await adjustChildCount(sql, toParentId, 1);
  if (countsInExtent(row)) {
    await recomputeItemsExtent(sql, row.parentId);
    // Moved below a tombstone it was buried, and the union finds no live item to add.
    await addReadyItemToParentExtent(sql, row.id);
  }
}

async function deleted(sql: Sql, event: PortalObjectDeleted, recorded: RecordedEvent): Promise<void> {
  const row = await targetOf(sql, event, recorded);
  if (!row) return;
  const at = recorded.metadata.occurredAt;
  const touched = await sql.query(
    `UPDATE portal_objects
        SET deleted_at = COALESCE(deleted_at, $3), child_count = 0, version = $2, updated_at = $3
      WHERE id = $1 AND version < $2`,
    [row.id, recorded.revision.toString(), at],
  );
  if (touched.rowCount !== 1) return;
  if (!row.deleted) await adjustChildCount(sql, row.parentId, -1);
  if (countsInExtent(row)) await recomputeItemsExtent(sql, row.parentId);
  // Descendants get no events of their own: tombstone the whole subtree through the ancestor_ids GIN index.
  // A plain (non-recursive) delete buries the subtree too: the API refused it if the tree read model had
  // children, so any found here were created in a race with the delete, and reads must agree with
  // commands, which see them under a deleted ancestor.
  await sql.query(
    `UPDATE portal_objects SET deleted_at = $2, child_count = 0
      WHERE ancestor_ids @> ARRAY[$1::uuid] AND deleted_at IS NULL`,
    [row.id, at],
  );
}
