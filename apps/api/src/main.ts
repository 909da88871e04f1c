import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { S3Client } from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import { createEventStore } from '@portal/eventstore';
import { applySchema, createLogger, createPool, loadConfig } from '@portal/platform';
import { createApp } from './app.js';
import { eventStoreCheck, postgresCheck, redisCheck, s3Check, uploadWorkerCheck } from './health/checks.js';
import { idempotencySchemaSql } from './http/idempotency.js';
import { ProjectionWaiter } from './projection/projection-waiter.js';

const SHUTDOWN_GRACE_MS = 20_000;

const config = loadConfig();
const logger = createLogger({ name: 'api', level: config.LOG_LEVEL });

const pool = createPool({
  connectionString: config.DATABASE_URL,
  max: config.DATABASE_POOL_SIZE,
  applicationName: 'api',
});
const eventStore = await createEventStore({
  databasePool: pool,
  ...(config.EVENTSTORE_CONNECTION_STRING
    ? { eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING }
    : {}),
});
await applySchema(pool, 'api', idempotencySchemaSql);
const projection = new ProjectionWaiter(pool, config.DATABASE_URL, logger);
await projection.start();
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: false });
redis.on('error', (error) => {
  logger.warn({ err: error }, 'redis connection problem');
});
const s3 = new S3Client({
  endpoint: config.S3_ENDPOINT,
  region: config.S3_REGION,
  forcePathStyle: config.S3_FORCE_PATH_STYLE,
  credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
});

const app = createApp({
  config,
  logger,
  pool,
  eventStore,
  projection,
  readinessChecks: [
    postgresCheck(pool),
    eventStoreCheck(eventStore, projection),
    redisCheck(redis),
    s3Check(s3, config.S3_BUCKET),
    uploadWorkerCheck(redis),
  ],
  now: () => new Date(),
  newId: randomUUID,
});

const server = app.listen(config.PORT, config.HOST, () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ port, host: config.HOST }, 'listening');
});

/** Lets requests in flight finish (bounded), then releases every connection. */
let shuttingDown = false;
async function shutdown(signal: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, 'shutting down');
  const closed = new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  server.closeIdleConnections();
  const grace = setTimeout(() => {
    server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  await closed;
  clearTimeout(grace);
  await projection.close();
  await Promise.allSettled([pool.end(), eventStore.close(), redis.quit()]);
  s3.destroy();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
