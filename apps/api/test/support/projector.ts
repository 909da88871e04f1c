import { PostgresEventStore } from '@portal/eventstore';
import { createLogger, createPool, type Pool } from '@portal/platform';
import { afterAll, beforeAll } from 'vitest';
import { PORTAL_PROJECTION_CHANNEL, portalProjection } from '../../../projector/src/portal-projection.js';
import { runProjector } from '../../../projector/src/run-projector.js';
import { ensureOperationsSchema } from '../../../projector/src/schemas.js';
import { ProjectionWaiter } from '../../src/projection/projection-waiter.js';

/**
 * The projector, in this process but with a pool and event store of its own as in the service, building
 * the `read` schema of the test file's own database from its event store (see event-store.ts; register
 * that first), and the API's `ProjectionWaiter` on it: commands answer once they are projected.
 */
export function useProjector(database: { readonly pool: Pool; readonly connectionString: string }): {
  readonly waiter: ProjectionWaiter;
} {
  const log = createLogger({ name: 'projector', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const shutdown = new AbortController();
  let pool: Pool | undefined;
  let store: PostgresEventStore | undefined;
  let running: Promise<void> | undefined;
  let waiter: ProjectionWaiter | undefined;

  beforeAll(async () => {
    await ensureOperationsSchema(database.pool, { schema: 'projector' });
    pool = createPool({
      connectionString: database.connectionString,
      max: 4,
      applicationName: 'projector-test',
    });
    // As the projector's own pool does (resources.ts): a dropped idle connection is discarded, not an
    // unhandled 'error' event (a test database dropped WITH (FORCE) ends them).
    pool.on('error', (error) => {
      log.debug({ err: error }, 'idle database connection failed');
    });
    store = new PostgresEventStore(pool, { pollIntervalMs: 100 });
    running = runProjector({
      pool,
      store,
      projection: portalProjection,
      schema: 'read',
      operationsSchema: 'projector',
      notifyChannel: PORTAL_PROJECTION_CHANNEL,
      batchSize: 100,
      retryDelaysMs: [],
      log,
      signal: shutdown.signal,
    });
    waiter = new ProjectionWaiter(database.pool, database.connectionString, log);
    await waiter.start();
  });

  afterAll(async () => {
    await waiter?.close();
    shutdown.abort();
    await running;
    await store?.close();
    await pool?.end();
  });

  return {
    get waiter() {
      if (!waiter) throw new Error('the projector is started in beforeAll');
      return waiter;
    },
  };
}
