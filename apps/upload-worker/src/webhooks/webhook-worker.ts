import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { webhookSecretBox, type Config } from '@portal/platform';
import type { OpenedDependencies } from '../worker-dependencies.js';
import { problemLog } from '../problem-log.js';
import { settlesWithin } from '../within.js';
import { retryDelayMs } from './backoff.js';
import { deliverWebhook, DeliveryAttemptFailed, type DeliveryDependencies } from './deliver-webhook.js';
import { startDispatcher, type RunningDispatcher } from './dispatcher.js';
import {
  DELIVER_WEBHOOK_JOB,
  WebhookQueue,
  WEBHOOK_BACKOFF,
  WEBHOOK_QUEUE_NAME,
  type DeliverWebhookJobData,
} from './webhook-queue.js';

/** Audit rows read per dispatcher transaction. */
const DISPATCH_BATCH_SIZE = 500;
/** A delivery takes at most 10 s; its lock outlives that comfortably. */
const DELIVERY_LOCK_MS = 30_000;
const FORCED_CLOSE_MS = 3_000;

export interface RunningWebhooks {
  readonly worker: Worker;
  readonly dispatcher: RunningDispatcher;
  close(graceMs: number): Promise<void>;
}

/**
 * The webhook side of the worker process (docs/webhooks.md): the dispatcher (one active across all
 * processes) turning audit rows into jobs on the `webhooks` queue, and a second BullMQ worker sending
 * them, with the same `QUEUE_PREFIX` as the upload queue.
 */
export function startWebhooks(config: Config, opened: OpenedDependencies): RunningWebhooks {
  const { logger, eventStore, now, newId } = opened.deps;
  const queue = new WebhookQueue(opened.redisConnection('webhook-queue'), config.QUEUE_PREFIX, {
    attempts: config.WEBHOOK_ATTEMPTS,
  });
  queue.queue.on('error', problemLog(logger, 'webhook queue problem').problem);
  const deliveryDeps: DeliveryDependencies = {
    pool: opened.pool,
    logger,
    eventStore,
    now,
    newId,
    policy: {
      allowHttpLoopback: config.WEBHOOK_ALLOW_HTTP_LOOPBACK,
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    },
    attempts: config.WEBHOOK_ATTEMPTS,
    disableAfterFailures: config.WEBHOOK_DISABLE_AFTER_FAILURES,
    secrets: webhookSecretBox(config, logger),
  };
  const worker = new Worker(WEBHOOK_QUEUE_NAME, (job) => processJob(deliveryDeps, job), {
    connection: opened.redisConnection('webhook-worker'),
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WEBHOOK_CONCURRENCY,
    lockDuration: DELIVERY_LOCK_MS,
    settings: {
      backoffStrategy: (attemptsMade: number) => retryDelayMs(attemptsMade, config.WEBHOOK_RETRY_DELAY_MS),
    },
  });
  worker.on('error', problemLog(logger, 'webhook worker problem').problem);
  worker.on('failed', (job, error) => {
    // An attempt the receiver refused is recorded already and expected; anything else is a problem here.
    if (error instanceof DeliveryAttemptFailed || error.name === 'DeliveryAttemptFailed') return;
    logger.warn({ err: error, jobId: job?.id, attemptsMade: job?.attemptsMade }, 'webhook job failed');
  });
  const dispatcher = startDispatcher(
    { pool: opened.pool, queue, readSchema: 'read', batchSize: DISPATCH_BATCH_SIZE, logger },
    { intervalMs: config.WEBHOOK_DISPATCH_INTERVAL_MS },
  );
  return {
    worker,
    dispatcher,
    close: async (graceMs) => {
      await dispatcher.close();
      if (!(await settlesWithin(worker.close(), graceMs)))
        await settlesWithin(worker.close(true), FORCED_CLOSE_MS);
      await settlesWithin(queue.close(), FORCED_CLOSE_MS);
    },
  };
}

function processJob(deps: DeliveryDependencies, job: Job): Promise<string> {
  if (job.name !== DELIVER_WEBHOOK_JOB || !isDeliveryData(job.data)) {
    throw new UnrecoverableError(`not a webhook delivery: ${job.name}`);
  }
  return deliverWebhook(deps, { data: job.data, attemptsMade: job.attemptsMade });
}

/** Job data comes from Redis: checked, never trusted. */
function isDeliveryData(data: unknown): data is DeliverWebhookJobData {
  if (typeof data !== 'object' || data === null) return false;
  const { webhookId, eventId, payload } = data as Record<string, unknown>;
  if (typeof webhookId !== 'string' || typeof eventId !== 'string') return false;
  if (typeof payload !== 'object' || payload === null) return false;
  const { id, type } = payload as Record<string, unknown>;
  return typeof id === 'string' && typeof type === 'string';
}

export { WEBHOOK_BACKOFF };
