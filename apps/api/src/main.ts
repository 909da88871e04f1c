import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createEventStore, observeAppends } from '@portal/eventstore';
import {
  createLogger,
  createMetricsRegistry,
  createPool,
  loadConfig,
  observePools,
  startMetricsServer,
  startTracing,
  webhookSecretBox,
} from '@portal/platform';
import { S3ObjectStore, s3SettingsOf, UploadQueue } from '@portal/uploads';
import { createApp } from './app.js';
import { createApiPool } from './database-pool.js';
import { createAuthServices } from './auth/auth-services.js';
import { ChangeFeedHub, changeFeedSettingsOf } from './events/change-feed-hub.js';
import { changeFeedMetrics } from './events/change-feed-metrics.js';
import { eventStoreCheck, postgresCheck, redisCheck, s3Check, uploadWorkerCheck } from './health/checks.js';
import { requirePublicBaseUrl } from './http/base-url.js';
import { answerClientError } from './http/client-error.js';
import { migrateApiSchemas } from './migrations/api-migrations.js';
import { ProjectionWaiter } from './projection/projection-waiter.js';
import { projectionWaitMetrics } from './projection/projection-wait-metrics.js';
import { sealClearSecrets } from './webhooks/webhook-secrets.js';

const config = loadConfig();
requirePublicBaseUrl(config);
const logger = createLogger({ name: 'api', level: config.LOG_LEVEL });
const tracing = await startTracing({ serviceName: 'portal-api', logger });
const metrics = createMetricsRegistry();

const pool = createApiPool(config, (error) => {
  logger.warn({ err: error }, 'idle database connection lost');
});
const eventStore = observeAppends(
  await createEventStore({
    databasePool: pool,
    ...(config.EVENTSTORE_CONNECTION_STRING
      ? { eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING }
      : {}),
  }),
  metrics,
);
await migrateApiSchemas(pool);
const webhookSecrets = webhookSecretBox(config, logger);
await sealClearSecrets(pool, webhookSecrets, logger);
const projection = new ProjectionWaiter(pool, config.DATABASE_URL, logger, projectionWaitMetrics(metrics));
await projection.start();
const changeFeedPool = createPool({
  connectionString: config.DATABASE_URL,
  max: 1,
  applicationName: 'api-change-feed',
  onIdleConnectionError: (error) => {
    logger.warn({ err: error }, 'change feed connection problem');
  },
});
const changeFeed: ChangeFeedHub = new ChangeFeedHub(
  pool,
  changeFeedPool,
  projection,
  changeFeedSettingsOf(config),
  logger,
  changeFeedMetrics(metrics, () => changeFeed.connectedClients),
);
observePools(metrics, { main: pool, change_feed: changeFeedPool });
await changeFeed.start();
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: false });
redis.on('error', (error) => {
  logger.warn({ err: error }, 'redis connection problem');
});
// Sign-in rate limits share this connection: a lost Redis fails a sign-in quickly (503) rather than hang it.
const auth = createAuthServices(config, logger, redis, projection);
const objectStore = new S3ObjectStore(s3SettingsOf(config));
// Its own connection: BullMQ's producer may block briefly, and a lost Redis must fail an enqueue quickly
// (the completion is recorded; the worker's sweep enqueues it again) instead of holding the request.
const queueRedis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
queueRedis.on('error', (error) => {
  logger.warn({ err: error }, 'redis (queue) connection problem');
});
const uploadQueue = new UploadQueue(queueRedis, config.QUEUE_PREFIX, {
  attempts: config.UPLOAD_COMPLETE_ATTEMPTS,
  delayMs: config.UPLOAD_RETRY_DELAY_MS,
});
uploadQueue.queue.on('error', (error) => {
  logger.warn({ err: error }, 'upload queue problem');
});

const app = createApp({
  config,
  logger,
  pool,
  eventStore,
  projection,
  objectStore,
  uploadQueue,
  readinessChecks: [
    postgresCheck(pool),
    eventStoreCheck(eventStore, projection),
    redisCheck(redis),
    s3Check(objectStore),
    uploadWorkerCheck(redis, config.QUEUE_PREFIX),
  ],
  auth,
  changeFeed,
  webhookSecrets,
  metrics,
  now: () => new Date(),
  newId: randomUUID,
});

const server = app.listen(config.PORT, config.HOST, () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ port, host: config.HOST }, 'listening');
});
server.on('clientError', answerClientError(logger));
const metricsServer = await startMetricsServer({
  registry: metrics,
  host: config.METRICS_HOST,
  port: config.METRICS_PORT,
  logger,
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
  // SSE streams never end by themselves: end them so the server can close; clients reconnect elsewhere.
  const feedClosed = changeFeed.close();
  const grace = setTimeout(() => {
    server.closeAllConnections();
  }, config.API_SHUTDOWN_GRACE_MS);
  await closed;
  clearTimeout(grace);
  await feedClosed;
  await metricsServer?.close();
  await projection.close();
  await uploadQueue.close().catch(() => undefined);
  await Promise.allSettled([pool.end(), eventStore.close(), redis.quit(), queueRedis.quit()]);
  objectStore.close();
  await tracing.shutdown();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
