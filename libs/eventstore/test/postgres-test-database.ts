import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PostgresEventStore, ensureEventStoreSchema } from '../src/index.js';
import type { PostgresEventStoreOptions } from '../src/index.js';

/**
 * Integration tests run in database `portal_test` (created when missing), and every store gets a
 * schema of its own, dropped after the file: tests never share events, and never touch `portal`.
 */
export const testDatabaseUrl =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test';

const duplicateDatabase = '42P04';
const uniqueViolation = '23505';

async function ensureTestDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return;
    await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`).catch((error: unknown) => {
      // Another test file or engineer created it at the same moment.
      const code = error instanceof Error && 'code' in error ? error.code : undefined;
      if (code !== duplicateDatabase && code !== uniqueViolation) throw error;
    });
  } finally {
    await client.end();
  }
}

export class PostgresTestStores {
  readonly pool: pg.Pool;
  private readonly schemas: string[] = [];

  private constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  static async open(): Promise<PostgresTestStores> {
    await ensureTestDatabase(testDatabaseUrl);
    return new PostgresTestStores(
      new pg.Pool({ connectionString: testDatabaseUrl, max: 24, application_name: 'eventstore-tests' }),
    );
  }

  /** A store on a fresh, empty schema of its own. */
  async createStore(options: Omit<PostgresEventStoreOptions, 'schema'> = {}): Promise<PostgresEventStore> {
    const schema = `es_test_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
    this.schemas.push(schema);
    await ensureEventStoreSchema(this.pool, { schema });
    return new PostgresEventStore(this.pool, { pollIntervalMs: 200, ...options, schema });
  }

  async dispose(): Promise<void> {
    for (const schema of this.schemas) await this.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await this.pool.end();
  }
}
