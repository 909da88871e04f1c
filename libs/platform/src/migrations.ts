import type { Pool, PoolClient } from './database.js';
import { withClient } from './database.js';

/** One numbered change of tables that cannot be rebuilt from events. */
export interface Migration {
  /** Applied in ascending order, each number once. */
  readonly number: number;
  readonly name: string;
  readonly sql: string;
}

export interface MigrationTarget {
  /** The schema that holds the `schema_migrations` record (created when missing). */
  readonly schema: string;
  readonly migrations: readonly Migration[];
}

/** Schema names reach SQL text; only plain lower-case identifiers pass. */
function quotedSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
  return `"${schema}"`;
}

function ordered(migrations: readonly Migration[]): Migration[] {
  const sorted = [...migrations].sort((a, b) => a.number - b.number);
  sorted.forEach((migration, index) => {
    if (!Number.isInteger(migration.number) || migration.number < 1) {
      throw new Error(`migration ${migration.name}: its number must be a positive integer`);
    }
    if (index > 0 && sorted[index - 1]?.number === migration.number) {
      throw new Error(`two migrations are numbered ${String(migration.number)}`);
    }
  });
  return sorted;
}

async function inOwnTransaction(client: PoolClient, work: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await work();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Applies the migrations of `target` that its `schema_migrations` table does not list yet, in ascending
 * order, each in its own transaction together with its row, under a session advisory lock so that two
 * processes starting together apply each one once (the second waits, then finds it applied). A failing
 * migration rolls back alone and rejects; those before it stay applied. Answers the numbers applied now.
 */
export async function runMigrations(pool: Pool, target: MigrationTarget): Promise<number[]> {
  const schema = quotedSchema(target.schema);
  const migrations = ordered(target.migrations);
  return withClient(pool, async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${target.schema}`]);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
           number integer PRIMARY KEY,
           name text NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const found = await client.query<{ number: number }>(`SELECT number FROM ${schema}.schema_migrations`);
      const applied = new Set(found.rows.map((row) => row.number));
      const now: number[] = [];
      for (const migration of migrations) {
        if (applied.has(migration.number)) continue;
        await inOwnTransaction(client, async () => {
          await client.query(migration.sql);
          await client.query(`INSERT INTO ${schema}.schema_migrations (number, name) VALUES ($1, $2)`, [
            migration.number,
            migration.name,
          ]);
        });
        now.push(migration.number);
      }
      return now;
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${target.schema}`]);
    }
  });
}
