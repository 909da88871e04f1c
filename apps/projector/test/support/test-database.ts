import { randomBytes } from 'node:crypto';
import { createPool, type Pool } from '@portal/platform';
import pg from 'pg';

/** Every projector test runs against this database, each in schemas of its own. */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test';

/** Creates the test database when missing; tolerates another test process creating it at the same time. */
export async function ensureTestDatabase(): Promise<void> {
  const url = new URL(TEST_DATABASE_URL);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      await admin.query(`CREATE DATABASE "${name}"`).catch((error: unknown) => {
        if ((error as { code?: string }).code !== '42P04') throw error;
      });
    }
  } finally {
    await admin.end();
  }
}

export function openTestPool(applicationName: string, max = 8): Pool {
  const pool = createPool({ connectionString: TEST_DATABASE_URL, applicationName, max });
  // Idle clients of a pool whose connections a test terminates report it here; the pool replaces them.
  pool.on('error', () => undefined);
  return pool;
}

/** A schema name no other test uses: `<prefix>_<8 hex>`. */
export function uniqueSchema(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

/** Drops the schemas and anything a rebuild derived from them (`<name>_rebuild_*`, `<name>_old_*`). */
export async function dropSchemas(pool: Pool, schemas: readonly string[]): Promise<void> {
  for (const schema of schemas) {
    const derived = await pool.query<{ nspname: string }>(
      `SELECT nspname FROM pg_namespace WHERE nspname = $1 OR nspname LIKE $1 || '\\_rebuild\\_%' OR nspname LIKE $1 || '\\_old\\_%'`,
      [schema],
    );
    for (const { nspname } of derived.rows) await pool.query(`DROP SCHEMA IF EXISTS "${nspname}" CASCADE`);
  }
}
