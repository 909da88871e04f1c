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
import type { HandlerContext, Sql } from '../../projection.js';
import { adjustChildCount, anyTombstoneAmong, findObject, type ObjectRow } from './rows.js';
import { assignSlug } from './slug-assignment.js';

/**
 * Evolve on rows. Every statement that changes the object itself is guarded by `version < revision`,
 * and changes to other rows (parent counts, the subtree) follow only when that statement touched the
 * row, so applying an event twice changes nothing.
 */
export async function applyPortalObjectEvent(
  sql: Sql,
  event: PortalObjectEvent,
  recorded: RecordedEvent,
  context: HandlerContext,
): Promise<void> {
  switch (event.type) {
    case 'CatalogCreated':
    case 'CollectionCreated':
      return created(sql, event, recorded);
    case 'PortalObjectUpdated':
      return updated(sql, event, recorded, context);
    case 'PortalObjectMoved':
      return moved(sql, event, recorded, context);
    case 'PortalObjectDeleted':
      return deleted(sql, event, recorded, context);
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

/**
 * One round trip: the placement comes from the parent row, the insert is guarded by the primary key
 * (and, on the first try, by the sibling slug index too), and the parent's child count moves only when
 * a live row was inserted. Prepared by name: it is the hottest statement of a bulk ingest.
 *
 * A create appends to the child's own stream only, so it can land after its parent's (or an ancestor's)
 * tombstone. The command side then answers 404 for the child (its ancestor is deleted), so the row is
 * born a tombstone, as if the delete had cascaded over it: it counts for no one and, outside the partial
 * slug index, takes no slug from live siblings.
 */
function insertCreatedSql(arbiter: 'any-unique-index' | 'primary-key'): { name: string; text: string } {
  return {
    name: `projector_portal_objects_insert_${arbiter === 'primary-key' ? 'by_id' : 'any'}`,
    text: `
      WITH parent AS (
        SELECT p.ancestor_ids || p.id AS ancestor_ids, p.depth + 1 AS depth,
               p.deleted_at IS NOT NULL OR EXISTS (
                 SELECT 1 FROM portal_objects a WHERE a.id = ANY(p.ancestor_ids) AND a.deleted_at IS NOT NULL
               ) AS under_tombstone
          FROM portal_objects p WHERE p.id = $5
        UNION ALL
        SELECT '{}'::uuid[], 1, false WHERE $5::uuid IS NULL
      ), inserted AS (
        INSERT INTO portal_objects (id, kind, status, title, description, parent_id, org_id, slug, ancestor_ids,
                                    depth, links, license, keywords, extent, version, created_at, updated_at,
                                    deleted_at)
        SELECT $1, $2, 'ready', $3, $4, $5, $6, $7, parent.ancestor_ids, parent.depth,
               $8::jsonb, $9, $10::jsonb, $11::jsonb, $12, $13, $13,
               CASE WHEN parent.under_tombstone THEN $13::timestamptz END
          FROM parent
        ON CONFLICT ${arbiter === 'primary-key' ? '(id) ' : ''}DO NOTHING
        RETURNING deleted_at IS NULL AS live
      ), counted AS (
        -- By the parameter, not a join with \`inserted\`: on a table without statistics yet (a fresh
        -- rebuild) the planner would scan every row for the join.
        UPDATE portal_objects SET child_count = child_count + 1
         WHERE id = $5 AND deleted_at IS NULL AND EXISTS (SELECT 1 FROM inserted WHERE live)
      )
      SELECT (SELECT count(*) FROM parent)::int AS placed, (SELECT count(*) FROM inserted)::int AS inserted`,
  };
}

async function created(
  sql: Sql,
  event: CatalogCreated | CollectionCreated,
  recorded: RecordedEvent,
): Promise<void> {
  const { data } = event;
  const base = slugify(data.title);
  const collection = event.type === 'CollectionCreated' ? event.data : null;
  const values = (slug: string): unknown[] => [
    data.id,
    collection ? 'collection' : 'catalog',
    data.title,
    data.description,
    data.parentId,
    recorded.metadata.orgId,
    slug,
    JSON.stringify(data.links),
    collection?.license ?? null,
    collection ? JSON.stringify(collection.keywords) : null,
    collection?.extent ? JSON.stringify(collection.extent) : null,
    recorded.revision.toString(),
    recorded.metadata.occurredAt,
  ];
  // Most titles are unique among their siblings: try the plain slug first, look further only if refused.
  const first = await sql.query<{ placed: number; inserted: number }>({
    ...insertCreatedSql('any-unique-index'),
    values: values(base),
  });
  if (first.rows[0]?.placed !== 1) {
    throw new Error(`parent ${data.parentId} of ${data.id} is not in the read model`);
  }
  if (first.rows[0].inserted === 1) return;
  if (await findObject(sql, data.id, { forUpdate: false })) return;
  const slug = await assignSlug(sql, { parentId: data.parentId, base, objectId: data.id, current: null });
  await sql.query({ ...insertCreatedSql('primary-key'), values: values(slug) });
}

/**
 * The row an event changes, locked, or `null` when there is nothing to do: the event is already applied,
 * or it concerns an item (items are projected from a later issue on). A missing catalog or collection is
 * a broken read model, so it fails loudly rather than being skipped.
 */
async function targetOf(
  sql: Sql,
  event: PortalObjectUpdated | PortalObjectMoved | PortalObjectDeleted,
  recorded: RecordedEvent,
  context: HandlerContext,
): Promise<ObjectRow | null> {
  const row = await findObject(sql, event.data.id, { forUpdate: true });
  if (!row) {
    if (event.data.kind === 'item') {
      context.log.debug(
        { eventId: recorded.id, type: recorded.type },
        'item events are not projected yet: ignored',
      );
      return null;
    }
    throw new Error(`${event.data.kind} ${event.data.id} is not in the read model`);
  }
  return row.version < recorded.revision ? row : null;
}

async function updated(
  sql: Sql,
  event: PortalObjectUpdated,
  recorded: RecordedEvent,
  context: HandlerContext,
): Promise<void> {
  const row = await targetOf(sql, event, recorded, context);
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
    set('slug', await assignSlug(sql, { parentId: row.parentId, base, objectId: row.id, current: row.slug }));
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

async function moved(
  sql: Sql,
  event: PortalObjectMoved,
  recorded: RecordedEvent,
  context: HandlerContext,
): Promise<void> {
  const row = await targetOf(sql, event, recorded, context);
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
  if (row.deleted) return;
  await adjustChildCount(sql, row.parentId, -1);
  if (!buried) await adjustChildCount(sql, toParentId, 1);
}

async function deleted(
  sql: Sql,
  event: PortalObjectDeleted,
  recorded: RecordedEvent,
  context: HandlerContext,
): Promise<void> {
  const row = await targetOf(sql, event, recorded, context);
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
