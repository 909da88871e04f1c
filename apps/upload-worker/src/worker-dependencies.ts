import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createEventStore, observeAppends } from '@portal/eventstore';
import {
  createPool,
  observePools,
  type Config,
  type Logger,
  type Pool,
  type Registry,
} from '@portal/platform';
import { S3ObjectStore, s3SettingsOf, UploadQueue } from '@portal/uploads';
import type { CompleteUploadDependencies } from './complete-upload.js';
import { problemLog } from './problem-log.js';
import { settlesWithin } from './within.js';
import { SweepQueries } from './sweep-queries.js';
import type { SweepDependencies } from './sweep-uploads.js';

/** The schema the projector keeps its read models in; the API reads the same one. */
export const READ_SCHEMA = 'read';
export const SWEEP_BATCH_SIZE = 500;

export type WorkerDependencies = CompleteUploadDependencies & SweepDependencies;

export interface OpenedDependencies {
  readonly deps: WorkerDependencies;
  readonly pool: Pool;
  readonly queue: UploadQueue;
  /** Opens a connection BullMQ may block on (`maxRetriesPerRequest: null`), with an error listener. */
  readonly redisConnection: (name: string) => Redis;
  close(): Promise<void>;
}

/**
 * Everything the worker talks to: PostgreSQL (event store and the sweep's read-model queries), the object
 * store, and Redis (the queue). Connection problems are logged, never thrown from a listener: BullMQ and
 * pg reconnect on their own, and the jobs retry.
 */
export async function openWorkerDependencies(
  config: Config,
  logger: Logger,
  metrics: Registry,
): Promise<OpenedDependencies> {
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_SIZE,
    applicationName: 'upload-worker',
    onIdleConnectionError: (error) => {
      logger.warn({ err: error }, 'idle database connection lost');
    },
  });
  observePools(metrics, { main: pool });
  const eventStore = observeAppends(
    await createEventStore({
      databasePool: pool,
      eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING,
    }),
    metrics,
  );
  const objectStore = new S3ObjectStore(s3SettingsOf(config));
  const connections: Redis[] = [];
  const redisConnection = (name: string): Redis => {
    // BullMQ needs `maxRetriesPerRequest: null`: its blocking commands must wait for Redis, not fail.
    // Named after the deployment's queue prefix, so `CLIENT LIST` tells whose connection it is.
    const connection = new Redis(config.REDIS_URL, {
      maxRetriesPerRequest: null,
      connectionName: `${config.QUEUE_PREFIX}:${name}`,
    });
    const problems = problemLog(logger.child({ connection: name }), 'redis connection problem');
    connection.on('error', problems.problem);
    connection.on('ready', problems.recovered);
    connections.push(connection);
    return connection;
  };
  const queue = new UploadQueue(redisConnection('upload-queue'), config.QUEUE_PREFIX, {
    attempts: config.UPLOAD_COMPLETE_ATTEMPTS,
    delayMs: config.UPLOAD_RETRY_DELAY_MS,
  });
  queue.queue.on('error', problemLog(logger, 'upload queue problem').problem);
  const deps: WorkerDependencies = {
    eventStore,
    objectStore,
    queue,
    queries: new SweepQueries(pool, READ_SCHEMA),
    logger,
    now: () => new Date(),
    newId: randomUUID,
    stuckAfterMs: config.UPLOAD_STUCK_AFTER_MS,
    batchSize: SWEEP_BATCH_SIZE,
  };
  return {
    deps,
    pool,
    queue,
    redisConnection,
    close: async () => {
      await settlesWithin(Promise.allSettled([queue.close(), eventStore.close()]), QUIT_TIMEOUT_MS);
      objectStore.close();
      await Promise.allSettled(connections.map(closeConnection));
      await pool.end();
    },
  };
}

const QUIT_TIMEOUT_MS = 2_000;

/** QUIT lets pending replies arrive; with Redis away it would wait for a reconnect forever, so it is bounded. */
async function closeConnection(connection: Redis): Promise<void> {
  await settlesWithin(connection.quit(), QUIT_TIMEOUT_MS);
  connection.disconnect();
}
