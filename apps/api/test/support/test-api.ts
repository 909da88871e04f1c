import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import type { EventStore } from '@portal/domain';
import type { PostgresEventStore } from '@portal/eventstore';
import { createLogger, loadConfig, SecretBox, type Pool } from '@portal/platform';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app.js';
import { createAuthServices } from '../../src/auth/auth-services.js';
import type { ApiDependencies } from '../../src/dependencies.js';
import { ChangeFeedHub, changeFeedSettingsOf } from '../../src/events/change-feed-hub.js';
import { usePostgresEventStore } from './event-store.js';
import { useProjector } from './projector.js';

export interface TestApi {
  readonly baseUrl: string;
  /** The event store the app appends to: the PostgreSQL adapter in the test database. */
  readonly store: PostgresEventStore;
  /** Stream prefixes whose appends fail, as a store that is down would. */
  readonly failing: Set<string>;
  /** The box the app seals webhook secrets with. */
  readonly webhookSecrets: SecretBox;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }>;
}

/**
 * The real app on a test database of its own, with the PostgreSQL event store (whose appends a test can
 * make fail, stream by stream) and the projector running in this process, so commands answer once they
 * are projected, as in the service. Started in `beforeAll`, closed in `afterAll`.
 */
export function useTestApi(
  database: { readonly pool: Pool; readonly connectionString: string },
  env: Record<string, string> = {},
): TestApi {
  const events = usePostgresEventStore(database);
  const projector = useProjector(database);
  const failing = new Set<string>();
  const store = () => events.store;
  const breakableStore: EventStore = {
    append: (streamId, toAppend, options) =>
      [...failing].some((prefix) => streamId.startsWith(prefix))
        ? Promise.reject(new Error('event store unavailable'))
        : store().append(streamId, toAppend, options),
    appendMany: (appends) =>
      appends.some(({ streamId }) => [...failing].some((prefix) => streamId.startsWith(prefix)))
        ? Promise.reject(new Error('event store unavailable'))
        : store().appendMany(appends),
    readStream: (streamId, options) => store().readStream(streamId, options),
    streamRevision: (streamId) => store().streamRevision(streamId),
    subscribeAll: (options) => store().subscribeAll(options),
    headPosition: () => store().headPosition(),
    syncPosition: (signal) => store().syncPosition(signal),
    lastWrittenPosition: () => store().lastWrittenPosition(),
    close: () => Promise.resolve(),
  };
  const webhookSecrets = new SecretBox(randomBytes(32));
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/1', { maxRetriesPerRequest: 1 });
  let server: Server | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: 'a-test-api-secret-0123456789abcdefghij',
      PASSWORD_SCRYPT_COST: '10',
      QUEUE_PREFIX: `test-api-${randomUUID()}`,
      ...env,
    });
    const logger = createLogger({ name: 'api', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
    const deps: ApiDependencies = {
      config,
      logger,
      pool: database.pool,
      eventStore: breakableStore,
      projection: projector.waiter,
      objectStore: {} as ApiDependencies['objectStore'],
      uploadQueue: { enqueueCompletion: () => Promise.resolve() },
      readinessChecks: [],
      auth: createAuthServices(config, logger, redis, projector.waiter),
      // Not started: these tests open no event stream.
      changeFeed: new ChangeFeedHub(
        database.pool,
        database.pool,
        { onAdvance: () => () => undefined },
        changeFeedSettingsOf(config),
        logger,
      ),
      webhookSecrets,
      now: () => new Date(),
      newId: randomUUID,
    };
    const listening = createApp(deps).listen(0, '127.0.0.1');
    server = listening;
    await new Promise((resolve) => listening.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await redis.quit();
  });

  return {
    get baseUrl() {
      return baseUrl;
    },
    get store() {
      return events.store;
    },
    failing,
    webhookSecrets,
    async post(path, body, headers = {}) {
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as Record<string, unknown>,
      };
    },
  };
}
