import type { Pool } from '@portal/platform';
import { type Principals, findVisibleObject, type PortalObjectRow } from '@portal/read-model-portal-objects';
import { listPortalObjects } from '../portal-items/list-portal-items.js';

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
  const { rows, next } = await listPortalObjects(
    pool,
    {
      limit: query.limit,
      kind: 'catalog',
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
      ...(query.parentId === undefined ? {} : { parentId: query.parentId }),
    },
    principals,
  );
  return { items: rows.map(catalogRecord), next };
}
