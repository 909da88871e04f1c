import type { Pool } from '@portal/platform';

/**
 * The row writes of one table so far: inserts, updates, and the updates PostgreSQL made heap-only (HOT: no index entry written, since no indexed column changed and the page
 * had room for the new version).
 */
export interface TableWrites {
  readonly table: string;
  readonly inserts: number;
  readonly updates: number;
  readonly hotUpdates: number;
}

/**
 * Every table of `schema` written so far, from PostgreSQL's statistics, most written first. A session's
 * own counts reach the statistics when it next ends a transaction after `pg_stat_force_next_flush()`.
 */
export async function tableWrites(pool: Pool, schema: string): Promise<TableWrites[]> {
  const result = await pool.query<{ table: string; inserts: string; updates: string; hot: string }>(
    `SELECT relname AS table, n_tup_ins::text AS inserts, n_tup_upd::text AS updates, n_tup_hot_upd::text AS hot
       FROM pg_stat_user_tables WHERE schemaname = $1 AND n_tup_ins + n_tup_upd > 0
      ORDER BY n_tup_ins + n_tup_upd DESC`,
    [schema],
  );
  return result.rows.map((row) => ({
    table: row.table,
    inserts: Number(row.inserts),
    updates: Number(row.updates),
    hotUpdates: Number(row.hot),
  }));
}
