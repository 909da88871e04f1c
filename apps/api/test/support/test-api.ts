import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import type { EventStore } from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import { createLogger, loadConfig, SecretBox, type Pool } from '@portal/platform';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app.js';
import { createAuthServices } from '../../src/auth/auth-services.js';
import type { ApiDependencies } from '../../src/dependencies.js';
import { ChangeFeedHub, changeFeedSettingsOf } from '../../src/events/change-feed-hub.js';
import type { ProjectionWaiter } from '../../src/projection/projection-waiter.js';

export interface TestApi {
  readonly baseUrl: string;
  /** Every event the app appended. */
  readonly store: InMemoryEventStore;
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
 * The real app on a test database of its own, with an in-memory event store the test can read and
 * break, and no projector (a create waits for nothing). Started in `beforeAll`, closed in `afterAll`.
 */
export function useTestApi(pool: () => Pool, env: Record<string, string> = {}): TestApi {
  const store = new InMemoryEventStore();
  const failing = new Set<string>();
  const breakableStore: EventStore = {
    append: (streamId, events, options) =>
      [...failing].some((prefix) => streamId.startsWith(prefix))
        ? Promise.reject(new Error('event store unavailable'))
        : store.append(streamId, events, options),
    readStream: (streamId, options) => store.readStream(streamId, options),
    streamRevision: (streamId) => store.streamRevision(streamId),
    subscribeAll: (options) => store.subscribeAll(options),
    headPosition: () => store.headPosition(),
    syncPosition: () => store.syncPosition(),
    close: () => store.close(),
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
      pool: pool(),
      eventStore: breakableStore,
      // No projector here: nothing to wait for.
      projection: { waitFor: () => Promise.resolve(true) } as unknown as ProjectionWaiter,
      objectStore: {} as ApiDependencies['objectStore'],
      uploadQueue: { enqueueCompletion: () => Promise.resolve() },
      readinessChecks: [],
      auth: createAuthServices(config, logger, redis),
      // Not started: these tests open no event stream.
      changeFeed: new ChangeFeedHub(
        pool(),
        pool(),
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
    store,
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
