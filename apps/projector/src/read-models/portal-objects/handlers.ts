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
import { adjustChildCount, findObject, type ObjectRow } from './rows.js';
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
}

async function placementUnder(sql: Sql, parentId: string | null, childId: string): Promise<Placement> {
  if (parentId === null) return { ancestorIds: [], depth: 1 };
  const parent = await findObject(sql, parentId, { forUpdate: false });
  if (!parent) throw new Error(`parent ${parentId} of ${childId} is not in the read model`);
  return { ancestorIds: [...parent.ancestorIds, parent.id], depth: parent.depth + 1 };
}

/**
 * One round trip: the placement comes from the parent row, the insert is guarded by the primary key
 * (and, on the first try, by the sibling slug index too), and the parent's child count moves only when
 * the insert happened. Prepared by name: it is the hottest statement of a bulk ingest.
 */
function insertCreatedSql(arbiter: 'any-unique-index' | 'primary-key'): { name: string; text: string } {
  return {
    name: `projector_portal_objects_insert_${arbiter === 'primary-key' ? 'by_id' : 'any'}`,
    text: `
      WITH parent AS (
        SELECT ancestor_ids || id AS ancestor_ids, depth + 1 AS depth FROM portal_objects WHERE id = $5
        UNION ALL
        SELECT '{}'::uuid[], 1 WHERE $5::uuid IS NULL
      ), inserted AS (
        INSERT INTO portal_objects (id, kind, status, title, description, parent_id, org_id, slug, ancestor_ids,
                                    depth, links, license, keywords, extent, version, created_at, updated_at)
        SELECT $1, $2, 'ready', $3, $4, $5, $6, $7, parent.ancestor_ids, parent.depth,
               $8::jsonb, $9, $10::jsonb, $11::jsonb, $12, $13, $13
          FROM parent
        ON CONFLICT ${arbiter === 'primary-key' ? '(id) ' : ''}DO NOTHING
        RETURNING 1
      ), counted AS (
        -- By the parameter, not a join with \`inserted\`: on a table without statistics yet (a fresh
        -- rebuild) the planner would scan every row for the join.
        UPDATE portal_objects SET child_count = child_count + 1
         WHERE id = $5 AND deleted_at IS NULL AND EXISTS (SELECT 1 FROM inserted)
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
  const slug = await assignSlug(sql, {
    parentId: toParentId,
    base: slugify(row.title),
    objectId: row.id,
    current: row.slug,
  });
  const touched = await sql.query(
    `UPDATE portal_objects
        SET parent_id = $3, ancestor_ids = $4::uuid[], depth = $5, slug = $6, version = $2, updated_at = $7
      WHERE id = $1 AND version < $2`,
    [
      row.id,
      recorded.revision.toString(),
      toParentId,
      placement.ancestorIds,
      placement.depth,
      slug,
      recorded.metadata.occurredAt,
    ],
  );
  if (touched.rowCount !== 1) return;
  // Every descendant's path starts with the old path of the moved object; swap that prefix in one statement.
  const newPrefix = [...placement.ancestorIds, row.id];
  const oldPrefixLength = row.ancestorIds.length + 1;
  await sql.query(
    `UPDATE portal_objects
        SET ancestor_ids = $2::uuid[] || ancestor_ids[$3 + 1:],
            depth = cardinality($2::uuid[]) + cardinality(ancestor_ids) - $3 + 1
      WHERE ancestor_ids @> ARRAY[$1::uuid]`,
    [row.id, newPrefix, oldPrefixLength],
  );
  if (row.deleted) return;
  await adjustChildCount(sql, row.parentId, -1);
  await adjustChildCount(sql, toParentId, 1);
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
  if (!event.data.recursive) return;
  // Descendants get no events of their own: tombstone the whole subtree through the ancestor_ids GIN index.
  await sql.query(
    `UPDATE portal_objects SET deleted_at = $2, child_count = 0
      WHERE ancestor_ids @> ARRAY[$1::uuid] AND deleted_at IS NULL`,
    [row.id, at],
  );
}
