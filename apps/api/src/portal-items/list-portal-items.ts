import type { PortalItemListQuery } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { QueryParams } from '@portal/read-model-core';
import {
  visibleObject,
  type Principals,
  visibleObjectColumns,
  type PortalObjectRow,
} from '@portal/read-model-portal-objects';
import { decodeTimeIdCursor, encodeCursor } from '../read-model/cursor.js';

/**
 * Portal objects of any kind that the caller can see, oldest first, keyset-paginated on (created_at, id);
 * `kind`, `status` and `parentId` narrow it (a pipeline polling `?status=failed&kind=item`, a frontend
 * listing a collection). The catalogs list (`listCatalogs`) is this with `kind: 'catalog'`: its order and
 * cursor are these.
 */
export async function listPortalObjects(
  pool: Pool,
  query: PortalItemListQuery,
  principals: Principals,
): Promise<{ rows: PortalObjectRow[]; next: string | null }> {
  const after = query.cursor === undefined ? null : decodeTimeIdCursor(query.cursor);
  const params = new QueryParams();
  const conditions = [visibleObject('o', principals, params)];
  if (query.kind !== undefined) conditions.push(`o.kind = ${params.add(query.kind, 'text')}`);
  if (query.status !== undefined) conditions.push(`o.status = ${params.add(query.status, 'text')}`);
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
  const rows = result.rows.slice(0, query.limit);
  const last = rows.at(-1);
  const next =
    result.rows.length > query.limit && last ? encodeCursor([last.created_at.toISOString(), last.id]) : null;
  return { rows, next };
}
