import { applySchema } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import { authSchemaSql } from '../src/auth/auth-schema.js';
import { idempotencySchemaSql } from '../src/http/idempotency.js';
import { apiMigrations, migrateApiSchemas } from '../src/migrations/api-migrations.js';
import { webhookSchemaSql } from '../src/webhooks/webhook-schema.js';
import { useReadDatabase } from './support/read-database.js';

// The API's tables hold what no event holds: a database the code of before created (no record of
// migrations, and perhaps older still, lacking a column added in place since) must migrate without loss.

const database = useReadDatabase('api_migrations');

async function columnsOf(schema: string, table: string): Promise<string[]> {
  const result = await database.pool.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2`,
    [schema, table],
  );
  return result.rows.map((row) => row.column_name);
}

describe('the API migrations', () => {
  it('migrate a database created by the DDL of before, keeping its rows, then apply nothing more', async () => {
    // As the API's boot left a database before migrations were numbered ...
    await applySchema(database.pool, 'api', idempotencySchemaSql);
    await applySchema(database.pool, 'auth', authSchemaSql);
    await applySchema(database.pool, 'webhooks', webhookSchemaSql);
    // ... by a release from before the columns once added in place.
    await database.pool.query('ALTER TABLE auth.credentials DROP COLUMN disabled_at');
    await database.pool.query('ALTER TABLE webhooks.endpoints DROP COLUMN previous_secret');
    await database.pool.query(
      `INSERT INTO auth.credentials (user_id, email, password_hash, personal_org_id)
       VALUES (gen_random_uuid(), 'kept@example.org', 'x', gen_random_uuid())`,
    );

    expect(await migrateApiSchemas(database.pool)).toEqual(
      apiMigrations.map((migration) => migration.number),
    );

    expect(await columnsOf('auth', 'credentials')).toContain('disabled_at');
    expect(await columnsOf('webhooks', 'endpoints')).toContain('previous_secret');
    const kept = await database.pool.query('SELECT 1 FROM auth.credentials WHERE email = $1', [
      'kept@example.org',
    ]);
    expect(kept.rowCount).toBe(1);
    expect(await migrateApiSchemas(database.pool)).toEqual([]);
    const recorded = await database.pool.query<{ number: number }>(
      'SELECT number FROM api.schema_migrations ORDER BY number',
    );
    expect(recorded.rows.map((row) => row.number)).toEqual(
      apiMigrations.map((migration) => migration.number),
    );
  });
});
