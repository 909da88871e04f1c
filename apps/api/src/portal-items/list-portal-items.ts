import type { PortalItemListQuery } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { decodeTimeIdCursor, encodeCursor } from '../read-model/cursor.js';
import { portalObjectColumns, type PortalObjectRow } from '../read-model/portal-object-rows.js';

/**
 * Live portal objects of any kind, oldest first, keyset-paginated on (created_at, id); `kind`, `status`
 * and `parentId` narrow it (a pipeline polling `?status=failed&kind=item`, a frontend listing a collection).
 */
export async function listPortalObjects(
  pool: Pool,
  query: PortalItemListQuery,
): Promise<{ rows: PortalObjectRow[]; next: string | null }> {
  const after = query.cursor === undefined ? null : decodeTimeIdCursor(query.cursor);
  const result = await pool.query<PortalObjectRow>(
    `SELECT ${portalObjectColumns} FROM read.portal_objects
      WHERE deleted_at IS NULL
        AND ($1::text IS NULL OR kind = $1)
        AND ($2::text IS NULL OR status = $2)
        AND ($3::uuid IS NULL OR parent_id = $3)
        AND ($4::timestamptz IS NULL OR (created_at, id) > ($4::timestamptz, $5::uuid))
      ORDER BY created_at, id
      LIMIT $6`,
    [
      query.kind ?? null,
      query.status ?? null,
      query.parentId ?? null,
      after?.at ?? null,
      after?.id ?? null,
      query.limit + 1,
    ],
  );
  const rows = result.rows.slice(0, query.limit);
  const last = rows.at(-1);
  const next =
    result.rows.length > query.limit && last ? encodeCursor([last.created_at.toISOString(), last.id]) : null;
  return { rows, next };
}
