import type { EventStore } from '@portal/domain';
import { createEventStore } from '@portal/eventstore';
import { createPool, type Config, type Logger, type Pool } from '@portal/platform';
import type { ProjectorConfig } from './projector-config.js';

export interface ProjectorResources {
  readonly pool: Pool;
  readonly store: EventStore;
  close(): Promise<void>;
}

/** The read-model pool and the event store chosen by configuration (EventStoreDB or PostgreSQL). */
export async function openProjectorResources(
  config: Config,
  projectorConfig: ProjectorConfig,
  applicationName: string,
  log: Logger,
): Promise<ProjectorResources> {
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_SIZE,
    applicationName,
    onIdleConnectionError: (error) => {
      log.warn({ err: error }, 'idle database connection failed');
    },
  });
  try {
    const store = await createEventStore({
      databasePool: pool,
      eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING,
      postgres: { schema: projectorConfig.EVENTSTORE_SCHEMA },
    });
    return {
      pool,
      store,
      async close() {
        await store.close();
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end();
    throw error;
  }
}
