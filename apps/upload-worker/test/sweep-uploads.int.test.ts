import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { completionJobId } from '@portal/uploads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeUpload } from '../src/complete-upload.js';
import { SweepQueries } from '../src/sweep-queries.js';
import { sweepUploads, type SweepReport } from '../src/sweep-uploads.js';
import { startUploadWorker } from '../src/upload-worker.js';
import type { WorkerDependencies } from '../src/worker-dependencies.js';
import { ItemFixture, MIB, type TestItem } from './support/item-fixture.js';
import { testConfig, WorkerTestContext } from './support/worker-test-context.js';

// The sweep's candidates come from the read model, filled here by the real projector handlers
// (apps/projector) from the same events the worker decides on.

let context: WorkerTestContext;
let items: ItemFixture;

beforeAll(async () => {
  context = await WorkerTestContext.open();
  items = new ItemFixture(context.eventStore, context.objectStore);
});

afterAll(async () => {
  await context.dispose();
});

function sweep(deps: Partial<WorkerDependencies> = {}): Promise<SweepReport> {
  return sweepUploads(context.deps(deps), 'sweep-test');
}

async function project(item: TestItem, ...more: string[]): Promise<void> {
  await context.project(...more, item.streamId);
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const past = () => new Date(Date.now() - 60_000).toISOString();
/** The sweep's clock `ms` from now: time passes for it without the test waiting. */
const inFuture = (ms: number) => () => new Date(Date.now() + ms);

describe('sweep-uploads', () => {
  it('aborts an upload open past its time to live and records UploadExpired', async () => {
    const item = await items.startUpload({ size: 100, expiresAt: past() });
    await items.uploadPart(item, 1, randomBytes(100));
    await project(item, `collection-${item.collectionId}`);

    const report = await sweep();

    expect(report).toMatchObject({ expired: 1, errors: 0 });
    expect(await items.types(item)).toEqual(['ItemUploadStarted', 'UploadExpired']);
    expect(await context.objectStore.listParts(item.plan.key, item.plan.uploadId)).toBeNull();
    const expired = (await items.events(item)).at(-1);
    expect(expired?.metadata).toMatchObject({ actorId: null, correlationId: items.correlationId });

    await project(item);
    expect((await context.uploadRow(item.id))?.status).toBe('expired');
    expect(await sweep()).toMatchObject({ expired: 0, skipped: 0 });
  });

  it('expires an upload whose completion failed and that was left past its time to live', async () => {
    // Other tests' uploads live for an hour: only this one is past its expiry at the clock used below.
    const item = await items.startUpload({
      size: 10 * MIB,
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    });
    await items.uploadPart(item, 1, randomBytes(5 * MIB));
    await items.requestCompletion(item);
    await completeUpload(context.deps(), {
      data: { itemId: item.id, uploadId: item.plan.uploadId, requestId: null },
      attemptsMade: 0,
      opts: { attempts: 1 },
    });
    expect(await items.status(item)).toBe('failed');
    await project(item, `collection-${item.collectionId}`);
    expect(await sweep()).toMatchObject({ expired: 0, errors: 0 });
    expect(await items.status(item)).toBe('failed');

    expect(await sweep({ now: inFuture(601_000) })).toMatchObject({ expired: 1, errors: 0 });
    expect(await items.status(item)).toBe('expired');
    expect(await context.objectStore.listParts(item.plan.key, item.plan.uploadId)).toBeNull();
    await project(item);
  });

  it('leaves an upload alone when the read model claims an expiry the event store does not confirm', async () => {
    const item = await items.startUpload({ size: 100 });
    await project(item, `collection-${item.collectionId}`);
    await context.pool.query(
      `UPDATE "${context.readSchema}".uploads SET expires_at = now() - interval '1 hour' WHERE item_id = $1`,
      [item.id],
    );

    expect(await sweep()).toMatchObject({ expired: 0, skipped: 1 });
    expect(await items.types(item)).toEqual(['ItemUploadStarted']);
    expect(await context.objectStore.listParts(item.plan.key, item.plan.uploadId)).toEqual([]);
    await context.pool.query(`DELETE FROM "${context.readSchema}".uploads WHERE item_id = $1`, [item.id]);
  });

  it('aborts the open upload of a deleted item', async () => {
    const item = await items.startUpload({ size: 100 });
    await items.uploadPart(item, 1, randomBytes(100));
    await items.deleteObject('item', item.id);
    await project(item, `collection-${item.collectionId}`);

    expect(await sweep()).toMatchObject({ aborted: 1, errors: 0 });
    expect(await items.types(item)).toEqual(['ItemUploadStarted', 'PortalObjectDeleted', 'UploadAborted']);
    expect(await context.objectStore.listParts(item.plan.key, item.plan.uploadId)).toBeNull();
    await project(item);
    expect((await context.uploadRow(item.id))?.status).toBe('aborted');
  });

  it('aborts the open upload of an item buried by a recursive delete above it', async () => {
    const catalogId = await items.createCatalog();
    const collectionId = await items.createCollection(catalogId);
    const item = await items.startUpload({ size: 100, collectionId });
    await items.deleteObject('catalog', catalogId, true);
    await project(item, `catalog-${catalogId}`, `collection-${collectionId}`);

    expect(await sweep()).toMatchObject({ aborted: 1, errors: 0 });
    expect(await items.types(item)).toEqual(['ItemUploadStarted', 'UploadAborted']);
    expect(await context.objectStore.listParts(item.plan.key, item.plan.uploadId)).toBeNull();
  });

  it('enqueues again a completion stuck in processing whose job was lost, and only once', async () => {
    const item = await items.startUpload({ size: 100 });
    await items.uploadPart(item, 1, randomBytes(100));
    await items.requestCompletion(item);
    await project(item, `collection-${item.collectionId}`);
    const jobId = completionJobId(item.plan.uploadId);
    expect(await context.queue.queue.getJobState(jobId)).toBe('unknown');

    expect(await sweep({ stuckAfterMs: 60_000 })).toMatchObject({ requeued: 0 });
    expect(await sweep({ stuckAfterMs: 60_000, now: inFuture(61_000) })).toMatchObject({
      requeued: 1,
      errors: 0,
    });
    const job = await context.queue.queue.getJob(jobId);
    expect(job?.data).toEqual({ itemId: item.id, uploadId: item.plan.uploadId, requestId: null });
    expect(await job?.getState()).toBe('waiting');
    expect(await sweep({ stuckAfterMs: 60_000, now: inFuture(61_000) })).toMatchObject({ requeued: 0 });
    await job?.remove();
  });

  it('sweeps nothing, and says so, while the projector has not created the read model yet', async () => {
    const queries = new SweepQueries(context.pool, 'no_such_read_schema');
    expect(await sweep({ queries })).toEqual({ expired: 0, aborted: 0, requeued: 0, skipped: 0, errors: 0 });
    expect(context.log.lines.some((line) => line.includes('the read model has no uploads table yet'))).toBe(
      true,
    );
  });

  it('runs on its schedule in a worker and brings a completion whose job Redis lost to ready', async () => {
    const item = await items.startUpload({ size: 5 * MIB + 3 });
    await items.uploadParts(item, [5 * MIB, 3]);
    await items.requestCompletion(item);
    await project(item, `collection-${item.collectionId}`);
    // What a Redis restart without persistence leaves: the event store says processing, the queue has no job.
    expect(await context.queue.queue.getJobState(completionJobId(item.plan.uploadId))).toBe('unknown');

    const connection = new Redis(testConfig.REDIS_URL, { maxRetriesPerRequest: null });
    const running = startUploadWorker(context.deps({ stuckAfterMs: 100 }), context.queue, connection, {
      prefix: context.prefix,
      concurrency: 2,
      lockDurationMs: 5_000,
      sweepIntervalMs: 300,
    });
    try {
      await waitFor('the item to be ready', async () => (await items.status(item)) === 'ready');
    } finally {
      await running.close(5_000);
      connection.disconnect();
    }
    const types = await items.types(item);
    expect(types.filter((type) => type === 'AssetAttached')).toHaveLength(1);
    expect(types.at(-1)).toBe('UploadCompleted');
  });
});
