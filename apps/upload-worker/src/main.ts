import {
  createLogger,
  createMetricsRegistry,
  loadConfig,
  startMetricsServer,
  startTracing,
} from '@portal/platform';
import { startHeartbeat } from './heartbeat.js';
import { observeUploadWorker } from './metrics/upload-metrics.js';
import { observeWebhookDeliveries } from './metrics/webhook-metrics.js';
import { startUploadWorker } from './upload-worker.js';
import { DeliveryAttemptFailed } from './webhooks/deliver-webhook.js';
import { startWebhooks } from './webhooks/webhook-worker.js';
import { settlesWithin } from './within.js';
import { openWorkerDependencies } from './worker-dependencies.js';

/** Active jobs get this long to finish on SIGTERM; Kubernetes' default grace period is 30 s. */
const SHUTDOWN_GRACE_MS = 20_000;
/** Closing connections after the jobs; bounded so a service that is away cannot hold the exit. */
const SHUTDOWN_CLEANUP_MS = 8_000;
const HEARTBEAT_STOP_MS = 2_000;

const config = loadConfig();
const logger = createLogger({ name: 'upload-worker', level: config.LOG_LEVEL });
const tracing = await startTracing({ serviceName: 'portal-upload-worker', logger });

const metrics = createMetricsRegistry();
const opened = await openWorkerDependencies(config, logger, metrics);
const heartbeatConnection = opened.redisConnection('upload-worker-heartbeat');
const stopHeartbeat = startHeartbeat(heartbeatConnection, logger, config.QUEUE_PREFIX);
const running = startUploadWorker(opened.deps, opened.queue, opened.redisConnection('upload-worker'), {
  prefix: config.QUEUE_PREFIX,
  concurrency: config.UPLOAD_WORKER_CONCURRENCY,
  lockDurationMs: config.UPLOAD_JOB_LOCK_MS,
  sweepIntervalMs: config.UPLOAD_SWEEP_INTERVAL_MS,
});
const webhooks = startWebhooks(config, opened);
observeUploadWorker(metrics, opened.queue.queue, running.worker, logger);
observeWebhookDeliveries(
  metrics,
  webhooks.worker,
  (error) => error instanceof DeliveryAttemptFailed || error.name === 'DeliveryAttemptFailed',
);
const metricsServer = await startMetricsServer({
  registry: metrics,
  host: config.METRICS_HOST,
  port: config.UPLOAD_WORKER_METRICS_PORT,
  logger,
});
logger.info(
  { prefix: config.QUEUE_PREFIX, concurrency: config.UPLOAD_WORKER_CONCURRENCY },
  'upload worker running',
);

/** Lets active jobs finish (bounded), then releases every connection. */
let shuttingDown = false;
async function shutdown(signal: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, 'shutting down');
  // Every step below is bounded; this is the net under them, so a stuck close never keeps the process.
  setTimeout(() => {
    logger.error('shutdown took too long; exiting');
    process.exit(1);
  }, SHUTDOWN_GRACE_MS + SHUTDOWN_CLEANUP_MS).unref();
  await Promise.all([running.close(SHUTDOWN_GRACE_MS), webhooks.close(SHUTDOWN_GRACE_MS)]);
  await settlesWithin(stopHeartbeat(), HEARTBEAT_STOP_MS);
  await settlesWithin(metricsServer?.close() ?? Promise.resolve(), HEARTBEAT_STOP_MS);
  await opened.close();
  await settlesWithin(tracing.shutdown(), HEARTBEAT_STOP_MS);
  logger.info('stopped');
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
