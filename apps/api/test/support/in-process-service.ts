import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { observeAppends } from '@portal/eventstore';
import {
  createMetricsRegistry,
  loadConfig,
  SecretBox,
  type Config,
  type Logger,
  type Pool,
} from '@portal/platform';
import { S3ObjectStore, s3SettingsOf, UploadQueue } from '@portal/uploads';
import { afterAll, beforeAll } from 'vitest';
import { startUploadWorker, type RunningWorker } from '../../../upload-worker/src/upload-worker.js';
import {
  openWorkerDependencies,
  type OpenedDependencies,
} from '../../../upload-worker/src/worker-dependencies.js';
import { createApp } from '../../src/app.js';
import { migrateApiSchemas } from '../../src/migrations/api-migrations.js';
import { createAuthServices } from '../../src/auth/auth-services.js';
import { ChangeFeedHub, changeFeedSettingsOf } from '../../src/events/change-feed-hub.js';
import { usePostgresEventStore } from './event-store.js';
import { useProjector } from './projector.js';

export interface InProcessService {
  readonly baseUrl: string;
  readonly config: Config;
}

/**
 * The API, the projector and the upload worker in this process, wired as their `main.ts` wire them
 * (the API's event store observed by `observeAppends`, a real upload queue, the worker's own
 * dependencies from `openWorkerDependencies`), on the test file's own database, real Redis (a queue
 * prefix of its own) and the test S3 gateway. For what only one process can see of all three at once:
 * the spans they record. Started in `beforeAll`, stopped in `afterAll`.
 */
export function useInProcessService(
  database: { readonly pool: Pool; readonly connectionString: string },
  logs: { readonly api: Logger; readonly worker: Logger },
  env: Record<string, string> = {},
): InProcessService {
  const events = usePostgresEventStore(database);
  const projector = useProjector(database);
  const prefix = `test-inproc-${randomBytes(4).toString('hex')}`;
  let config: Config | undefined;
  let server: Server | undefined;
  let baseUrl = '';
  let worker: { opened: OpenedDependencies; running: RunningWorker } | undefined;
  const connections: Redis[] = [];
  const objectStores: S3ObjectStore[] = [];
  let uploadQueue: UploadQueue | undefined;

  beforeAll(async () => {
    await migrateApiSchemas(database.pool);
    const loaded = loadConfig({
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: database.connectionString,
      QUEUE_PREFIX: prefix,
      JWT_SECRET: 'an-in-process-test-secret-0123456789abcdef',
      PASSWORD_SCRYPT_COST: '10',
      UPLOAD_RETRY_DELAY_MS: '100',
      ...env,
    });
    config = loaded;
    const redis = new Redis(loaded.REDIS_URL, { maxRetriesPerRequest: 1 });
    const queueRedis = new Redis(loaded.REDIS_URL, { maxRetriesPerRequest: 1 });
    connections.push(redis, queueRedis);
    const queue = new UploadQueue(queueRedis, prefix, {
      attempts: loaded.UPLOAD_COMPLETE_ATTEMPTS,
      delayMs: loaded.UPLOAD_RETRY_DELAY_MS,
    });
    uploadQueue = queue;
    const objectStore = new S3ObjectStore(s3SettingsOf(loaded));
    objectStores.push(objectStore);
    const metrics = createMetricsRegistry();
    const app = createApp({
      config: loaded,
      logger: logs.api,
      pool: database.pool,
      eventStore: observeAppends(events.store, metrics),
      projection: projector.waiter,
      objectStore,
      uploadQueue: queue,
      readinessChecks: [],
      auth: createAuthServices(loaded, logs.api, redis, projector.waiter),
      // Not started: no test here opens the change feed.
      changeFeed: new ChangeFeedHub(
        database.pool,
        database.pool,
        { onAdvance: () => () => undefined },
        changeFeedSettingsOf(loaded),
        logs.api,
      ),
      webhookSecrets: new SecretBox(randomBytes(32)),
      metrics,
      now: () => new Date(),
      newId: randomUUID,
    });
    const listening = app.listen(0, '127.0.0.1');
    server = listening;
    await new Promise((resolve) => listening.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;

    const opened = await openWorkerDependencies(loaded, logs.worker, createMetricsRegistry());
    const running = startUploadWorker(opened.deps, opened.queue, opened.redisConnection('upload-worker'), {
      prefix,
      concurrency: 2,
      lockDurationMs: loaded.UPLOAD_JOB_LOCK_MS,
      sweepIntervalMs: loaded.UPLOAD_SWEEP_INTERVAL_MS,
    });
    worker = { opened, running };
  });

  afterAll(async () => {
    await worker?.running.close(5_000);
    await uploadQueue?.queue.obliterate({ force: true }).catch(() => undefined);
    await worker?.opened.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await uploadQueue?.close();
    await Promise.allSettled(connections.map((connection) => connection.quit()));
    for (const objectStore of objectStores) objectStore.close();
  });

  return {
    get baseUrl() {
      return baseUrl;
    },
    get config() {
      if (!config) throw new Error('the service is started in beforeAll');
      return config;
    },
  };
}
