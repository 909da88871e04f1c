import type { Pool } from './database.js';
import { inTransaction } from './database.js';

/**
 * Applies idempotent DDL (CREATE … IF NOT EXISTS) under a transaction-scoped advisory lock, because
 * two processes booting at once can still collide inside PostgreSQL's catalogs on "IF NOT EXISTS".
 */
export async function applySchema(pool: Pool, name: string, sql: string): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`schema:${name}`]);
    await client.query(sql);
  });
}
