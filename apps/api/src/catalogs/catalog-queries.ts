import type { Pool } from '@portal/platform';
import { QueryParams } from '@portal/read-model-core';
import {
  visibleObject,
  type Principals,
  findVisibleObject,
  visibleObjectColumns,
  type PortalObjectRow,
} from '@portal/read-model-portal-objects';
import { decodeTimeIdCursor, encodeCursor } from '../read-model/cursor.js';

/** `childCount`: the children the caller can see (the row is read with `visibleObjectColumns`). */
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

/** A catalog the caller can see, or `null` (404, the same for a hidden one as for an unknown one). */
export async function getCatalog(pool: Pool, id: string, principals: Principals) {
  const row = await findVisibleObject(pool, id, principals, 'catalog');
  return row ? catalogRecord(row) : null;
}

/**
 * The catalogs the caller can see, oldest first, keyset-paginated on (created_at, id); `parentId`
 * narrows to children.
 */
export async function listCatalogs(
  pool: Pool,
  query: {
    readonly limit: number;
    readonly cursor?: string | undefined;
    readonly parentId?: string | undefined;
  },
  principals: Principals,
) {
  const after = query.cursor === undefined ? null : decodeTimeIdCursor(query.cursor);
  const params = new QueryParams();
  const conditions = [`o.kind = 'catalog'`, visibleObject('o', principals, params)];
  if (query.parentId !== undefined) conditions.push(`o.parent_id = ${params.add(query.parentId, 'uuid')}`);
  if (after !== null) {
    conditions.push(
      `(o.created_at, o.id) > (${params.add(after.at, 'timestamptz')}, ${params.add(after.id, 'uuid')})`,
    );
  }
  const result = await pool.query<PortalObjectRow>(
    `SELECT ${visibleObjectColumns('o', principals, params)} FROM read.portal_objects o
      WHERE ${conditions.join(' AND ')}
      ORDER BY o.created_at, o.id
      LIMIT ${params.add(query.limit + 1, 'int')}`,
    params.values,
  );
  const page = result.rows.slice(0, query.limit);
  const last = page.at(-1);
  const next =
    result.rows.length > query.limit && last ? encodeCursor([last.created_at.toISOString(), last.id]) : null;
  return { items: page.map(catalogRecord), next };
}
