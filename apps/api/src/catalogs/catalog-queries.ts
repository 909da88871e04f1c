import type { Pool } from '@portal/platform';
import { decodeTimeIdCursor, encodeCursor } from '../read-model/cursor.js';
import {
  findLiveObject,
  portalObjectColumns,
  type PortalObjectRow,
} from '../read-model/portal-object-rows.js';

export function catalogRecord(row: PortalObjectRow) {
  return {
    id: row.id,
    kind: 'catalog' as const,
    title: row.title,
    description: row.description ?? '',
    parentId: row.parent_id,
    slug: row.slug,
    depth: row.depth,
    childCount: row.child_count,
    links: row.links,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    revision: Number(row.version),
  };
}

export async function getCatalog(pool: Pool, id: string) {
  const row = await findLiveObject(pool, id, 'catalog');
  return row ? catalogRecord(row) : null;
}

/** Every live catalog, oldest first, keyset-paginated on (created_at, id); `parentId` narrows to children. */
export async function listCatalogs(
  pool: Pool,
  query: {
    readonly limit: number;
    readonly cursor?: string | undefined;
    readonly parentId?: string | undefined;
  },
) {
  const after = query.cursor === undefined ? null : decodeTimeIdCursor(query.cursor);
  const result = await pool.query<PortalObjectRow>(
    `SELECT ${portalObjectColumns} FROM read.portal_objects
     WHERE kind = 'catalog' AND deleted_at IS NULL
       AND ($1::uuid IS NULL OR parent_id = $1)
       AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
     ORDER BY created_at, id
     LIMIT $4`,
    [query.parentId ?? null, after?.at ?? null, after?.id ?? null, query.limit + 1],
  );
  const page = result.rows.slice(0, query.limit);
  const last = page.at(-1);
  const next =
    result.rows.length > query.limit && last ? encodeCursor([last.created_at.toISOString(), last.id]) : null;
  return { items: page.map(catalogRecord), next };
}
