import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { comparePositions } from '@portal/domain';
import { ensureEventStoreSchema, PostgresEventStore } from '@portal/eventstore';
import { createPool, uploadWorkerHeartbeatKey, type Pool } from '@portal/platform';
import { completionJobId, S3ObjectStore, s3SettingsOf, UploadQueue } from '@portal/uploads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalProjection } from '../../projector/src/portal-projection.js';
import { ensureReadSchema } from '../../projector/src/schemas.js';
import { applyInSchema } from '../../projector/test/support/read-model-access.js';
import { TEST_DATABASE_URL } from '../../projector/test/support/test-database.js';
import { assetIdOf } from '../src/asset-id.js';
import { ItemFixture, MIB, type TestItem } from './support/item-fixture.js';
import { captureLogger, testConfig } from './support/worker-test-context.js';
import { WorkerProcess } from './support/worker-process.js';

// The worker process as deployed (`node --import tsx apps/upload-worker/src/main.ts`), on a database of
// its own: main.ts uses the default schemas (`eventstore`, `read`), as the API does.

const databaseName = `portal_uw_${randomBytes(4).toString('hex')}`;
const prefix = `test-uwp-${randomBytes(4).toString('hex')}`;
let databaseUrl: string;
let pool: Pool;
let eventStore: PostgresEventStore;
const objectStore = new S3ObjectStore(s3SettingsOf(testConfig));
const redis = new Redis(testConfig.REDIS_URL, { maxRetriesPerRequest: null });
const queue = new UploadQueue(redis, prefix, { attempts: 5, delayMs: 100 });
let items: ItemFixture;
const workers: WorkerProcess[] = [];

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await admin((client) => client.query(`CREATE DATABASE ${databaseName}`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  pool = createPool({ connectionString: databaseUrl, applicationName: 'upload-worker-process-test', max: 6 });
  await pool.query('CREATE EXTENSION IF NOT EXISTS postgis');
  await ensureEventStoreSchema(pool);
  await ensureReadSchema(pool, { schema: 'read', projection: portalProjection });
  eventStore = new PostgresEventStore(pool);
  items = new ItemFixture(eventStore, objectStore);
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await queue.queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  redis.disconnect();
  objectStore.close();
  await eventStore.close();
  await pool.end();
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`));
});

function startWorker(env: NodeJS.ProcessEnv = {}): WorkerProcess {
  const worker = new WorkerProcess({
    ...process.env,
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'info',
    UPLOAD_JOB_LOCK_MS: '1000',
    UPLOAD_COMPLETE_ATTEMPTS: '5',
    UPLOAD_RETRY_DELAY_MS: '100',
    ...env,
  });
  workers.push(worker);
  return worker;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** A completion requested and its job enqueued, as `POST …/upload/complete` leaves it. */
async function processingItem(): Promise<TestItem> {
  const item = await items.startUpload({ size: 5 * MIB + 99 });
  await items.uploadParts(item, [5 * MIB, 99]);
  await items.requestCompletion(item);
  return item;
}

/**
 * Holds the item stream's next revision in an open transaction, so the worker's append waits on it:
 * the worker is then stopped exactly between completing the object in S3 and recording it.
 */
async function holdNextRevision(item: TestItem): Promise<{ release: () => Promise<void> }> {
  const client = await pool.connect();
  const last = (await items.events(item)).at(-1);
  await client.query('BEGIN');
  await eventStore.appendWithin(
    client,
    item.streamId,
    [{ id: randomUUID(), type: 'TestLockHolder', data: {}, metadata: items.metadata() }],
    { expectedRevision: last?.revision ?? 'no_stream' },
  );
  return {
    release: async () => {
      await client.query('ROLLBACK');
      client.release();
    },
  };
}

async function workerWaitsOnLock(): Promise<boolean> {
  const result = await pool.query(
    `SELECT 1 FROM pg_stat_activity
      WHERE datname = $1 AND application_name = 'upload-worker' AND wait_event_type = 'Lock'`,
    [databaseName],
  );
  return (result.rowCount ?? 0) > 0;
}

/** The real projector's handlers fill `read.uploads`, where the worker's sweep looks. */
async function project(item: TestItem): Promise<void> {
  const streams = await Promise.all(
    [`collection-${item.collectionId}`, item.streamId].map((streamId) => eventStore.readStream(streamId)),
  );
  const events = streams.flat().sort((a, b) => comparePositions(a.position, b.position));
  await applyInSchema(pool, 'read', events, captureLogger('project').logger);
}

function countOf(types: readonly string[], type: string): number {
  return types.filter((candidate) => candidate === type).length;
}

describe('the upload worker process', () => {
  it('resumes a job whose worker was SIGKILLed after S3 completed it: ready once, one asset', async () => {
    const item = await processingItem();
    const hold = await holdNextRevision(item);
    const first = startWorker();
    await first.waitForLog('upload worker running');
    await queue.enqueueCompletion({
      itemId: item.id,
      uploadId: item.plan.uploadId,
      requestId: 'request-kill',
    });

    await waitFor('the worker to block on its append', workerWaitsOnLock);
    // S3 has assembled the object; the event store has not heard of it yet.
    expect(await objectStore.listParts(item.plan.key, item.plan.uploadId)).toBeNull();
    expect((await objectStore.headObject(item.plan.key))?.size).toBe(5 * MIB + 99);
    first.signal('SIGKILL');
    expect(await first.exited()).toEqual({ code: null, signal: 'SIGKILL' });
    // A killed client's backend may still be waiting on the lock and would finish its one-statement append
    // once we release it; a real crash mid-append rolls back, which ending the backend makes certain.
    await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'upload-worker'`,
      [databaseName],
    );
    await hold.release();
    expect(await items.status(item)).toBe('processing');

    const second = startWorker();
    await waitFor('the item to be ready', async () => (await items.status(item)) === 'ready');
    const types = await items.types(item);
    expect(countOf(types, 'AssetAttached')).toBe(1);
    expect(countOf(types, 'UploadCompleted')).toBe(1);
    expect(countOf(types, 'UploadFailed')).toBe(0);
    expect(await items.attachedAssets(item)).toMatchObject([
      { id: assetIdOf(item.plan.uploadId), size: 5 * MIB + 99 },
    ]);
    await waitFor(
      'the finished job to leave the queue',
      async () => (await queue.queue.getJobState(completionJobId(item.plan.uploadId))) === 'unknown',
    );
    expect(
      second.entries.some((entry) => entry.msg === 'job stalled (its worker stopped); it runs again'),
    ).toBe(true);

    await second.stop();
    expect(await second.exited()).toEqual({ code: 0, signal: null });
  });

  it('on SIGTERM lets the active job finish before it exits', async () => {
    const item = await processingItem();
    const hold = await holdNextRevision(item);
    const worker = startWorker();
    await worker.waitForLog('upload worker running');
    // The first beat is written asynchronously, so it may land just after the worker says it runs.
    await waitFor('the heartbeat', async () => (await redis.get(uploadWorkerHeartbeatKey(prefix))) !== null);
    await queue.enqueueCompletion({ itemId: item.id, uploadId: item.plan.uploadId, requestId: null });
    await waitFor('the worker to block on its append', workerWaitsOnLock);

    worker.signal('SIGTERM');
    await worker.waitForLog('shutting down');
    await sleep(300);
    expect(worker.entries.some((entry) => entry.msg === 'stopped')).toBe(false);
    await hold.release();

    expect(await worker.exited()).toEqual({ code: 0, signal: null });
    expect(await items.status(item)).toBe('ready');
    expect(worker.entries.map((entry) => entry.msg)).toEqual(
      expect.arrayContaining(['upload completed', 'stopped']),
    );
  });

  it('finishes a completion whose job Redis lost, found by its repeatable sweep', async () => {
    const item = await processingItem();
    await queue.enqueueCompletion({ itemId: item.id, uploadId: item.plan.uploadId, requestId: null });
    // A Redis restart without persistence: every key of the queue is gone, the job with them.
    await wipeQueueKeys();
    expect(await queue.queue.getJobState(completionJobId(item.plan.uploadId))).toBe('unknown');
    await project(item);

    const worker = startWorker({ UPLOAD_SWEEP_INTERVAL_MS: '300', UPLOAD_STUCK_AFTER_MS: '200' });
    await waitFor('the item to be ready', async () => (await items.status(item)) === 'ready');
    expect(countOf(await items.types(item), 'AssetAttached')).toBe(1);
    expect(worker.entries.some((entry) => entry.msg === 'completion had no job; enqueued again')).toBe(true);
    await worker.stop();
  });

  it('schedules its sweep again after Redis restarts under it, and heals a completion lost then', async () => {
    const worker = startWorker({ UPLOAD_SWEEP_INTERVAL_MS: '300', UPLOAD_STUCK_AFTER_MS: '200' });
    await worker.waitForLog('upload worker running');
    await waitFor('the sweep to be scheduled', async () => (await queue.queue.getJobSchedulersCount()) === 1);

    await restartRedis();
    // Only a sweep scheduled anew can find this one: the old schedule and its jobs went with the restart.
    const item = await processingItem();
    await project(item);

    await waitFor('the item to be ready', async () => (await items.status(item)) === 'ready');
    expect(countOf(await items.types(item), 'AssetAttached')).toBe(1);
    expect(await queue.queue.getJobSchedulersCount()).toBe(1);
    await worker.stop();
    expect(await worker.exited()).toEqual({ code: 0, signal: null });
  });
});

/**
 * What a restart of a Redis that keeps nothing on disk does to this deployment: every key of its queue
 * is gone, and every connection of the worker is dropped (so it reconnects to an empty Redis).
 */
async function restartRedis(): Promise<void> {
  // The worker logs that it runs before every one of its connections has finished connecting.
  await waitFor('the worker to be connected to Redis', async () => (await workerClientIds()).length >= 3);
  await wipeQueueKeys();
  const ids = await workerClientIds();
  for (const id of ids) await redis.client('KILL', 'ID', id);
  expect(ids.length).toBeGreaterThan(0);
}

/** Redis client ids of the worker's connections, which it names after the queue prefix. */
async function workerClientIds(): Promise<string[]> {
  const own = String(await redis.client('ID'));
  const clients = (await redis.client('LIST')) as string;
  return clients.split('\n').flatMap((line) => {
    const id = /\bid=(\d+)/.exec(line)?.[1];
    const name = /\bname=(\S*)/.exec(line)?.[1] ?? '';
    return id !== undefined && id !== own && name.includes(prefix) ? [id] : [];
  });
}

async function wipeQueueKeys(): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
