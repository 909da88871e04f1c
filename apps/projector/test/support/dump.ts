import type { Pool } from '@portal/platform';

/** Every row of the read model (or only those of `ids`), ordered by id, as comparable JSON. */
export async function dumpPortalObjects(
  pool: Pool,
  schema: string,
  ids?: readonly string[],
): Promise<unknown[]> {
  const result = await pool.query<{ row: unknown }>(
    `SELECT to_jsonb(p) AS row FROM "${schema}".portal_objects p
      WHERE $1::uuid[] IS NULL OR id = ANY($1::uuid[]) ORDER BY id`,
    [ids ?? null],
  );
  return result.rows.map((r) => r.row);
}
