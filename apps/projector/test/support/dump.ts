import type { Pool } from '@portal/platform';

/** Every row of the read model, ordered by id, as comparable JSON. */
export async function dumpPortalObjects(pool: Pool, schema: string): Promise<unknown[]> {
  const result = await pool.query<{ row: unknown }>(
    `SELECT to_jsonb(p) AS row FROM "${schema}".portal_objects p ORDER BY id`,
  );
  return result.rows.map((r) => r.row);
}
