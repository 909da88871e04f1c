import { slugify } from '@portal/domain';
import type { Sql } from '../../projection.js';
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
];

/**
 * Every create of a run in one statement: each row is placed below its parent as the single insert
 * places it (placed-insert.ts: path, depth, born a tombstone below one, inherited access), with its plain
 * slug; the parents' child counts move by the live rows inserted below them, and items get their
 * uploads. A replayed create finds its row and inserts nothing. The run holds no parent of its own
 * rows and no two slugs of one family among the same siblings, so the only refusal left is a plain slug
 * a live sibling held before the run: those rows are listed, with any whose parent is missing.
 */
const insertCreatesRunSql = `
  WITH input AS (
    SELECT * FROM unnest(${inputColumns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')})
                  WITH ORDINALITY AS i(${inputColumns.map(([name]) => name).join(', ')}, n)
  ), placed AS (
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
           EXISTS (SELECT 1 FROM portal_objects o WHERE o.id = i.id) AS existed
      FROM input i LEFT JOIN portal_objects p ON p.id = i.parent_id
  ), inserted AS (
    INSERT INTO portal_objects (id, parent_id, slug, ancestor_ids, depth, created_at, updated_at, deleted_at,
                                org_id, visibility, created_by, effective_visibility, share_readers,
                                share_editors, read_principals, kind, status, title, description, links,
                                license, keywords, extent, tags, bbox, geometry, footprint, datetime,
                                start_datetime, end_datetime, properties, version)
    SELECT id, parent_id, slug, ancestor_ids, depth, at, at, CASE WHEN under_tombstone THEN at END,
           org_id, visibility, created_by, effective_visibility, share_readers, share_editors,
           portal_read_principals(org_id, created_by, effective_visibility, share_readers),
           kind, status, title, description, links, license, keywords, extent, COALESCE(tags, '[]'),
           bbox::double precision[], geometry, portal_footprint(geometry, bbox::double precision[]),
           datetime, start_datetime, end_datetime, properties, version
      FROM placed WHERE found AND NOT existed ORDER BY n
    ON CONFLICT DO NOTHING
    RETURNING id, parent_id, deleted_at IS NULL AS live
  ), counted AS (
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
     WHERE i.kind = 'item'
    ON CONFLICT (item_id) DO NOTHING
  )
  SELECT p.n::int AS n, p.found
    FROM placed p
   WHERE NOT p.found OR NOT (p.existed OR EXISTS (SELECT 1 FROM inserted WHERE inserted.id = p.id))
   ORDER BY p.n`;

/**
 * Inserts the creates of a run, then each one whose plain slug a sibling held with the next free
 * candidate, in event order. No other create of the run can take one of those candidates (the run
 * holds no slug of the same family among the same siblings), so every row ends with the slug it gets
 * event by event.
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
  for (const { n, found } of result.rows) {
    const create = creates[n - 1];
    if (!create) throw new Error(`the run's insert reported row ${n} of ${creates.length}`);
    const { row, statements } = create;
    if (!found) throw new Error(`parent ${row.parentId} of ${row.id} is not in the read model`);
    await insertWithFreeSlug(sql, statements, row);
  }
}
