import { runMigrations, type Migration, type Pool } from '@portal/platform';
import { authSchemaSql } from '../auth/auth-schema.js';
import { idempotencySchemaSql } from '../http/idempotency.js';
import { webhookSchemaSql } from '../webhooks/webhook-schema.js';

/**
 * The API's own tables (`api`, `auth`, `webhooks`) hold what no event holds, so unlike the read models
 * they cannot be rebuilt: they change by numbered migrations, applied once each, in order, recorded in
 * `api.schema_migrations` (docs/decisions.md, "Numbered migrations for the API's tables"). A new change is
 * a new entry at the end; an applied entry is never edited.
 */
export const apiMigrations: readonly Migration[] = [
  {
    // The DDL as it stood when migrations began, `IF NOT EXISTS` throughout: a database created by the
    // code of before (at any earlier state of it) passes through unharmed and gains what it lacked.
    number: 1,
    name: 'idempotency keys, auth, webhooks',
    sql: [idempotencySchemaSql, authSchemaSql, webhookSchemaSql].join(';\n'),
  },
];

/** Applies the API's migrations not applied yet: at the API's boot, by `npm run migrate`, by the console. */
export function migrateApiSchemas(pool: Pool): Promise<number[]> {
  return runMigrations(pool, { schema: 'api', migrations: apiMigrations });
}
