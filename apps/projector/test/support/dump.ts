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

export interface ReadModelDump {
  readonly portalObjects: unknown[];
  readonly uploads: unknown[];
  readonly assets: unknown[];
}

/** `dumpPortalObjects` with the items' uploads and assets (of the items among `ids`, if given). */
export async function dumpReadModel(
  pool: Pool,
  schema: string,
  ids?: readonly string[],
): Promise<ReadModelDump> {
  const itemRows = async (table: 'uploads' | 'assets', order: string): Promise<unknown[]> => {
    const result = await pool.query<{ row: unknown }>(
      `SELECT to_jsonb(t) AS row FROM "${schema}".${table} t
        WHERE $1::uuid[] IS NULL OR item_id = ANY($1::uuid[]) ORDER BY ${order}`,
      [ids ?? null],
    );
    return result.rows.map((r) => r.row);
  };
  return {
    portalObjects: await dumpPortalObjects(pool, schema, ids),
    uploads: await itemRows('uploads', 'item_id'),
    assets: await itemRows('assets', 'id'),
  };
}
