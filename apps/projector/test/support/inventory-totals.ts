import type { Pool } from '@portal/platform';

/** One row of `inventory_totals`, bigints as text. */
export interface TotalsBucket {
  readonly read_principals: string[];
  readonly kind: string;
  readonly status: string;
  readonly objects: string;
  readonly bytes: string;
}

// Byte order of the array's text: the same order for both sides of a comparison.
const bucketOrder = 'ORDER BY read_principals::text COLLATE "C", kind, status';

/** Every row the triggers keep (emptied buckets included: there should be none). */
export async function maintainedTotals(pool: Pool, schema: string): Promise<TotalsBucket[]> {
  const result = await pool.query<TotalsBucket>(
    `SELECT read_principals, kind, status, object_count::text AS objects, asset_bytes::text AS bytes
       FROM "${schema}".inventory_totals ${bucketOrder}`,
  );
  return result.rows;
}

/** The same totals counted from the live rows: what the triggers must always agree with. */
export async function recountedTotals(pool: Pool, schema: string): Promise<TotalsBucket[]> {
  const result = await pool.query<TotalsBucket>(
    `SELECT read_principals, kind, status, count(*)::text AS objects, sum(asset_bytes)::text AS bytes
       FROM "${schema}".portal_objects
      WHERE deleted_at IS NULL
      GROUP BY read_principals, kind, status
      ${bucketOrder}`,
  );
  return result.rows;
}
