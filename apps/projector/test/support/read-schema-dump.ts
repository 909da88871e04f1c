import type { Pool } from '@portal/platform';

/**
 * Every row of every read-model table of `schema`, as comparable JSON: each table's rows sorted, the
 * audit trail in its order (`seq` left out: it numbers whatever sequence values a schema used up). The
 * checkpoint row is left out too: it says how far, not what.
 */
export async function dumpReadSchema(pool: Pool, schema: string): Promise<Record<string, unknown[]>> {
  const tables = await pool.query<{ tablename: string }>(
    `SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'projection_checkpoints'
      ORDER BY tablename`,
    [schema],
  );
  const dump: Record<string, unknown[]> = {};
  for (const { tablename } of tables.rows) {
    if (tablename === 'audit_events') {
      const rows = await pool.query<{ row: unknown }>(
        `SELECT to_jsonb(t) - 'seq' AS row FROM "${schema}".audit_events t ORDER BY seq`,
      );
      dump[tablename] = rows.rows.map((r) => r.row);
      continue;
    }
    const rows = await pool.query<{ row: unknown; text: string }>(
      `SELECT to_jsonb(t) AS row, to_jsonb(t)::text AS text FROM "${schema}"."${tablename}" t`,
    );
    dump[tablename] = rows.rows
      .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
      .map((r) => r.row);
  }
  return dump;
}

/** Empties every read-model table of `schema` and puts its checkpoint back at the start. */
export async function resetReadSchema(pool: Pool, schema: string): Promise<void> {
  const tables = await pool.query<{ tablename: string }>(
    `SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename NOT IN ('projection_checkpoints', 'read_model_versions')`,
    [schema],
  );
  const names = tables.rows.map(({ tablename }) => `"${schema}"."${tablename}"`).join(', ');
  await pool.query(`TRUNCATE ${names} RESTART IDENTITY`);
  await pool.query(
    `UPDATE "${schema}".projection_checkpoints SET commit_position = -1, prepare_position = -1`,
  );
}
