/**
 * Applies every schema the service owns, idempotently: the PostgreSQL event store (when no EventStoreDB
 * is configured), the read models, the projector's operational tables and the API's own tables.
 * `npm start` and the end-to-end tests run it before the apps; each app also checks its own at boot.
 */
import { ensureEventStoreSchema } from '@portal/eventstore';
import { createLogger, createPool, loadConfig } from '@portal/platform';
import { migrateApiSchemas } from '../apps/api/src/migrations/api-migrations.js';
import { portalProjection } from '../apps/projector/src/portal-projection.js';
import { ensureOperationsSchema, ensureReadSchema } from '../apps/projector/src/schemas.js';

const config = loadConfig();
const logger = createLogger({ name: 'migrate', level: config.LOG_LEVEL });
const pool = createPool({ connectionString: config.DATABASE_URL, max: 2, applicationName: 'migrate' });

try {
  await pool.query('CREATE EXTENSION IF NOT EXISTS postgis');
  await pool.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
  if (!config.EVENTSTORE_CONNECTION_STRING) await ensureEventStoreSchema(pool);
  const readSchema = await ensureReadSchema(pool, { schema: 'read', projection: portalProjection });
  if (readSchema === 'outdated') {
    // Needs the event store; the projector replaces it at start (docs/projection.md, "Read model versions").
    logger.warn('the read schema was built at other read model versions: the projector rebuilds it at start');
  }
  await ensureOperationsSchema(pool, { schema: 'projector' });
  await migrateApiSchemas(pool);
  logger.info(
    readSchema === 'outdated'
      ? 'event store, operations and API schemas are up to date; the read schema awaits its rebuild'
      : 'schemas are up to date',
  );
} finally {
  await pool.end();
}
