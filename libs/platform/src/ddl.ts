import type { Pool, PoolClient } from './database.js';
import { inTransaction } from './database.js';

/**
 * Runs schema setup in one transaction under a transaction-scoped advisory lock named after `name`,
 * because two processes booting at once can still collide inside PostgreSQL's catalogs on
 * "CREATE … IF NOT EXISTS".
 */
export async function withSchemaLock(
  pool: Pool,
  name: string,
  work: (client: PoolClient) => Promise<void>,
): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`schema:${name}`]);
    await work(client);
  });
}

/** Applies idempotent DDL (CREATE … IF NOT EXISTS) under the schema lock of `name`. */
export async function applySchema(pool: Pool, name: string, sql: string): Promise<void> {
  await withSchemaLock(pool, name, async (client) => {
    await client.query(sql);
  });
}
