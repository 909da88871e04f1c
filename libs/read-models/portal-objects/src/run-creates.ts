import { slugify } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { boxUnionSql, extentBox } from './collection-extent.js';
import { createdStacItemText } from './created-stac-item.js';
import type { NewObjectRow } from './new-object-row.js';
import { insertWithFreeSlug, type PlacedInsertStatements } from './placed-insert.js';

/** The parameters of the run's insert: one array per column, a row per create. */
const inputColumns: readonly (readonly [string, string, (row: NewObjectRow) => unknown])[] = [
  ['id', 'uuid', (row) => row.id],
  ['parent_id', 'uuid', (row) => row.parentId],
  ['slug', 'text', (row) => slugify(row.title)],
  ['at', 'timestamptz', (row) => row.occurredAt],
  ['org_id', 'uuid', (row) => row.orgId],
  ['visibility', 'text', (row) => row.visibility],
  ['created_by', 'uuid', (row) => row.createdBy],
  ['kind', 'text', (row) => row.kind],
  ['status', 'text', (row) => row.status],
  ['title', 'text', (row) => row.title],
  ['description', 'text', (row) => row.description],
  ['links', 'jsonb', (row) => row.links],
  ['license', 'text', (row) => row.license],
  ['keywords', 'jsonb', (row) => row.keywords],
  ['extent', 'jsonb', (row) => row.extent],
  ['tags', 'jsonb', (row) => row.tags],
  // An array per row cannot travel in an array of arrays (PostgreSQL's are rectangular): as its literal.
  ['bbox', 'text', (row) => (row.bbox ? `{${row.bbox.join(',')}}` : null)],
  ['geometry', 'jsonb', (row) => row.geometry],
  ['datetime', 'timestamptz', (row) => row.datetime],
  ['start_datetime', 'timestamptz', (row) => row.startDatetime],
  ['end_datetime', 'timestamptz', (row) => row.endDatetime],
  ['properties', 'jsonb', (row) => row.properties],
  ['version', 'bigint', (row) => row.version],
  ['upload_id', 'text', (row) => row.upload?.uploadId ?? null],
  ['bucket', 'text', (row) => row.upload?.bucket ?? null],
  ['key', 'text', (row) => row.upload?.key ?? null],
  ['part_size', 'bigint', (row) => row.upload?.partSize ?? null],
  ['part_count', 'integer', (row) => row.upload?.partCount ?? null],
  ['size_bytes', 'bigint', (row) => row.upload?.size ?? null],
  ['file_name', 'text', (row) => row.upload?.fileName ?? null],
  ['content_type', 'text', (row) => row.upload?.contentType ?? null],
  ['expires_at', 'timestamptz', (row) => row.upload?.expiresAt ?? null],
  ['href_assets', 'jsonb', (row) => row.hrefAssets],
  ['stac_id', 'text', (row) => row.stacId],
  // Kept only for a live item below a collection known by its UUID (created-stac-item.ts), as the single
  // insert keeps it.
  ['stac_item', 'text', (row) => createdStacItemText(row)],
];

/**
 * Every create of a run in one statement: each row is placed below its parent as the single insert
 * places it (placed-insert.ts: path, depth, born a tombstone below one, inherited access), with its plain
 * slug; the parents' child counts move by the live rows inserted below them, and items get their
 * uploads (an item registered by href has none: it is `ready`, with its assets). A replayed create
 * finds its row and inserts nothing. The registered items widen their parents' extents afterwards
 * (`widenExtentsByRegistered`): this statement already updates those parent rows.
 *
 * A parent created earlier in the same run is not in the table yet: its children are placed below its
 * placement in the run (recursively), and it is inserted with the count of its live children of the run
 * (a new object has no other children; a new object has no shares of its own, so its children inherit
 * what it inherited). The run holds no two slugs of one family among the same siblings, so the only
 * refusal left is a plain slug a live sibling held before the run: those rows are listed, with any whose
 * parent is missing.
 */
const insertCreatesRunSql = `
  WITH RECURSIVE input AS (
    SELECT i.*, EXISTS (SELECT 1 FROM portal_objects o WHERE o.id = i.id) AS existed
      FROM unnest(${inputColumns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')})
           WITH ORDINALITY AS i(${inputColumns.map(([name]) => name).join(', ')}, n)
  ), placed AS (
    -- Below a row of the table, or at root level.
    SELECT i.*, i.parent_id IS NULL OR p.id IS NOT NULL AS found,
           CASE WHEN i.parent_id IS NULL THEN '{}'::uuid[] ELSE p.ancestor_ids || p.id END AS ancestor_ids,
           CASE WHEN i.parent_id IS NULL THEN 1 ELSE p.depth + 1 END AS depth,
           i.parent_id IS NOT NULL AND (p.deleted_at IS NOT NULL OR EXISTS (
             SELECT 1 FROM portal_objects a WHERE a.id = ANY(p.ancestor_ids) AND a.deleted_at IS NOT NULL
           )) AS under_tombstone,
           CASE WHEN i.parent_id IS NULL THEN i.visibility
                ELSE portal_narrower_visibility(p.effective_visibility, i.visibility) END AS effective_visibility,
           CASE WHEN i.parent_id IS NULL OR i.visibility = 'private' THEN '{}'::text[] ELSE p.share_readers END
             AS share_readers,
           CASE WHEN i.parent_id IS NULL OR i.visibility = 'private' THEN '{}'::text[] ELSE p.share_editors END
             AS share_editors,
           p.kind AS parent_kind, p.stac_id AS parent_stac_id
      FROM input i LEFT JOIN portal_objects p ON p.id = i.parent_id
     WHERE NOT EXISTS (SELECT 1 FROM input q WHERE q.id = i.parent_id AND q.n < i.n AND NOT q.existed)
    UNION ALL
    -- Below a row created earlier in the run: it is placed already.
    SELECT c.*, q.found, q.ancestor_ids || q.id, q.depth + 1, q.under_tombstone,
           portal_narrower_visibility(q.effective_visibility, c.visibility),
           CASE WHEN c.visibility = 'private' THEN '{}'::text[] ELSE q.share_readers END,
           CASE WHEN c.visibility = 'private' THEN '{}'::text[] ELSE q.share_editors END,
           q.kind, q.stac_id
      FROM input c JOIN placed q ON q.id = c.parent_id AND q.n < c.n AND NOT q.existed
  ), children AS (
    -- A new parent's children of the run: all its children, since it is new.
    SELECT parent_id, count(*)::int AS count FROM placed WHERE NOT existed GROUP BY parent_id
  ), inserted AS (
    INSERT INTO portal_objects (id, parent_id, slug, ancestor_ids, depth, created_at, updated_at, deleted_at,
                                org_id, visibility, created_by, effective_visibility, share_readers,
                                share_editors, read_principals, kind, status, title, description, links,
                                license, keywords, extent, tags, bbox, geometry, footprint, datetime,
                                start_datetime, end_datetime, properties, version, href_assets, child_count,
                                stac_id, stac_item)
    SELECT p.id, p.parent_id, p.slug, p.ancestor_ids, p.depth, p.at, p.at,
           CASE WHEN p.under_tombstone THEN p.at END,
           p.org_id, p.visibility, p.created_by, p.effective_visibility, p.share_readers, p.share_editors,
           portal_read_principals(p.org_id, p.created_by, p.effective_visibility, p.share_readers),
           p.kind, p.status, p.title, p.description, p.links, p.license, p.keywords, p.extent,
           COALESCE(p.tags, '[]'), p.bbox::double precision[], p.geometry,
           CASE WHEN p.geometry IS NOT NULL OR p.bbox IS NOT NULL
                THEN portal_footprint(p.geometry, p.bbox::double precision[]) END,
           p.datetime, p.start_datetime, p.end_datetime, p.properties, p.version, COALESCE(p.href_assets, '[]'),
           CASE WHEN p.under_tombstone THEN 0 ELSE COALESCE(children.count, 0) END, p.stac_id,
           CASE WHEN p.parent_kind = 'collection' AND p.parent_stac_id IS NULL AND NOT p.under_tombstone
                THEN p.stac_item END
      FROM placed p LEFT JOIN children ON children.parent_id = p.id
     WHERE p.found AND NOT p.existed
     ORDER BY p.n
    ON CONFLICT DO NOTHING
    RETURNING id, parent_id, deleted_at IS NULL AS live
  ), counted AS (
    -- Parents in the table; a parent inserted by this statement is not in its snapshot, and counted above.
    UPDATE portal_objects p SET child_count = p.child_count + c.children
      FROM (SELECT parent_id, count(*)::int AS children FROM inserted
             WHERE live AND parent_id IS NOT NULL GROUP BY parent_id) c
     WHERE p.id = c.parent_id AND p.deleted_at IS NULL
  ), uploaded AS (
    INSERT INTO uploads (item_id, upload_id, bucket, key, part_size, part_count, size_bytes, file_name,
                         content_type, status, expires_at, version, created_at, updated_at)
    SELECT i.id, i.upload_id, i.bucket, i.key, i.part_size, i.part_count, i.size_bytes, i.file_name,
           i.content_type, 'uploading', i.expires_at, i.version, i.at, i.at
      FROM input i JOIN inserted ON inserted.id = i.id
     WHERE i.kind = 'item' AND i.upload_id IS NOT NULL
    ON CONFLICT (item_id) DO NOTHING
  )
  SELECT i.n::int AS n, COALESCE(p.found, false) AS found
    FROM input i LEFT JOIN placed p ON p.n = i.n
   WHERE NOT COALESCE(p.found, false)
      OR NOT (i.existed OR EXISTS (SELECT 1 FROM inserted WHERE inserted.id = i.id))
   ORDER BY i.n`;

/**
 * A row whose plain slug was refused goes in afterwards with child count 0 (the single insert's
 * default), but children of the run may already be below it: it gets the count of its live children.
 */
const recountChildrenSql = `
  UPDATE portal_objects p
     SET child_count = (SELECT count(*) FROM portal_objects c WHERE c.parent_id = p.id AND c.deleted_at IS NULL)
   WHERE p.id = ANY($1::uuid[]) AND p.deleted_at IS NULL`;

/**
 * Inserts the creates of a run, then each one whose plain slug a sibling held with the next free
 * candidate, in event order. No other create of the run can take one of those candidates (the run
 * holds no slug of the same family among the same siblings), so every row ends with the slug it gets
 * event by event. Such a row goes in after its children of the run: its child count is recounted.
 */
export async function insertCreatesRun(
  sql: Sql,
  creates: readonly { readonly row: NewObjectRow; readonly statements: PlacedInsertStatements }[],
): Promise<void> {
  if (creates.length === 0) return;
  const result = await sql.query<{ n: number; found: boolean }>({
    name: 'projector_portal_objects_insert_run',
    text: insertCreatesRunSql,
    values: inputColumns.map(([, , value]) => creates.map(({ row }) => value(row))),
  });
  const refused: NewObjectRow[] = [];
  for (const { n, found } of result.rows) {
    const create = creates[n - 1];
    if (!create) throw new Error(`the run's insert reported row ${n} of ${creates.length}`);
    const { row, statements } = create;
    if (!found) throw new Error(`parent ${row.parentId} of ${row.id} is not in the read model`);
    await insertWithFreeSlug(sql, statements, row);
    refused.push(row);
  }
  const refusedParents = refused.filter(({ id }) => creates.some(({ row }) => row.parentId === id));
  if (refusedParents.length === 0) return;
  await sql.query({
    name: 'projector_portal_objects_recount_children',
    text: recountChildrenSql,
    values: [refusedParents.map(({ id }) => id)],
  });
}

/**
 * The parents of the run's items registered by href widened by all of them at once, as the single
 * handler widens one (item-handlers.ts): only by an item row still as its event left it (live, at the
 * event's revision), by min and max, so in any order and again on a replay without change.
 */
const widenByRegisteredSql = `
  WITH ready AS (
    SELECT o.parent_id,
           CASE WHEN count(box) > 0 THEN ARRAY[min(box[1]), min(box[2]), max(box[3]), max(box[4])] END AS box,
           min(starts) AS starts, max(ends) AS ends
      FROM unnest($1::uuid[], $2::bigint[]) AS r(id, revision)
      JOIN portal_objects o ON o.id = r.id AND o.version = r.revision AND o.deleted_at IS NULL,
           LATERAL (SELECT ${extentBox('o.bbox')} AS box, COALESCE(o.datetime, o.start_datetime) AS starts,
                           COALESCE(o.datetime, o.end_datetime) AS ends) e
     GROUP BY o.parent_id
  )
  UPDATE portal_objects p
     SET items_bbox = ${boxUnionSql('p.items_bbox', 'r.box')},
         items_start = least(p.items_start, r.starts),
         items_end = greatest(p.items_end, r.ends)
    FROM ready r
   WHERE p.id = r.parent_id AND p.deleted_at IS NULL`;

export async function widenExtentsByRegistered(
  sql: Sql,
  registered: readonly { readonly id: string; readonly version: string }[],
): Promise<void> {
  if (registered.length === 0) return;
  await sql.query({
    name: 'projector_items_registered_extent_run',
    text: widenByRegisteredSql,
    values: [registered.map(({ id }) => id), registered.map(({ version }) => version)],
  });
}
