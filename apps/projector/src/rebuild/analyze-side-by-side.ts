import type { Pool } from '@portal/platform';
import { quoteIdentifier } from '@portal/read-model-core';
import { onConnections } from './on-connections.js';

/**
 * ANALYZE of every table of a filled schema, as `analyzeTables` does, but on `connections` sessions at
 * once, the largest tables first: each table's sample is one backend's work, and a rebuilt portal has
 * two large tables (`portal_objects`, `audit_events`) whose statistics need not wait for each other.
 */
export async function analyzeSideBySide(pool: Pool, schema: string, connections: number): Promise<void> {
  const tables = await pool.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = $1
      ORDER BY pg_total_relation_size(format('%I.%I', schemaname, tablename)::regclass) DESC, tablename`,
    [schema],
  );
  await onConnections(
    pool,
    tables.rows.map((row) => row.name),
    connections,
    {
      begin: () => Promise.resolve(),
      apply: async (client, table) => {
        await client.query(`ANALYZE ${quoteIdentifier(schema)}.${quoteIdentifier(table)}`);
      },
    },
  );
}
