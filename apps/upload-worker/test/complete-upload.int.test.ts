import { randomBytes } from 'node:crypto';
import { S3ObjectStore, completionJobId, s3SettingsOf, type CompleteUploadJobData } from '@portal/uploads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetIdOf } from '../src/asset-id.js';
import { completeUpload, type CompletionJob } from '../src/complete-upload.js';
import type { CompletionStep } from '../src/object-completion.js';
import { requeueIfRequestedAgain } from '../src/requeue-after-failure.js';
import type { WorkerDependencies } from '../src/worker-dependencies.js';
import { ItemFixture, MIB, type TestItem } from './support/item-fixture.js';
import { testConfig, WorkerTestContext } from './support/worker-test-context.js';

let context: WorkerTestContext;
let items: ItemFixture;

beforeAll(async () => {
  context = await WorkerTestContext.open();
  items = new ItemFixture(context.eventStore, context.objectStore);
});

afterAll(async () => {
  await context.dispose();
});

/** A job as BullMQ hands it over: `attemptsMade` attempts already failed out of `attempts`. */
function jobFor(item: TestItem, attemptsMade = 0, attempts = 3): CompletionJob {
  const data: CompleteUploadJobData = {
    itemId: item.id,
    uploadId: item.plan.uploadId,
    requestId: 'request-1',
  };
  return { id: completionJobId(item.plan.uploadId), data, attemptsMade, opts: { attempts } };
}

function run(item: TestItem, deps: Partial<WorkerDependencies> = {}, attemptsMade = 0) {
  return completeUpload(context.deps(deps), jobFor(item, attemptsMade));
}

class SimulatedCrash extends Error {}

describe('complete-upload', () => {
  it('assembles 5 MiB + 5 MiB + a small last part into one verified asset, and records it once', async () => {
    const size = 10 * MIB + 4321;
    const item = await items.startUpload({ size });
    const { file } = await items.uploadParts(item, [5 * MIB, 5 * MIB, 4321]);
    const requested = await items.requestCompletion(item);

    const outcome = await run(item);

    expect(outcome).toEqual({ outcome: 'ready', assetId: assetIdOf(item.plan.uploadId), recorded: true });
    expect(await items.types(item)).toEqual([
      'ItemUploadStarted',
      'UploadCompletionRequested',
      'AssetAttached',
      'UploadCompleted',
    ]);
    const head = await context.objectStore.headObject(item.plan.key);
    expect(head?.etag).toMatch(/^"[0-9a-f]{32}-3"$/);
    expect(await items.attachedAssets(item)).toEqual([
      {
        id: assetIdOf(item.plan.uploadId),
        bucket: testConfig.S3_BUCKET,
        key: item.plan.key,
        size,
        etag: head?.etag,
        contentType: 'image/tiff',
        fileName: 'scene.tif',
      },
    ]);
    // The worker's events name the request they follow up on; no actor, since the system acts.
    const [attached, completed] = (await items.events(item)).slice(2);
    for (const event of [attached, completed]) {
      expect(event?.metadata).toMatchObject({
        actorId: null,
        causationId: requested.id,
        correlationId: items.correlationId,
        requestId: 'request-1',
      });
    }
    expect(completed?.data).toEqual({
      id: item.id,
      uploadId: item.plan.uploadId,
      assetId: assetIdOf(item.plan.uploadId),
    });
    const download = await fetch(
      await context.objectStore.presignDownload(item.plan.key, 60, { fileName: null, contentType: null }),
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(file)).toBe(true);
    expect(context.log.lines.join('\n')).not.toMatch(/X-Amz-Signature|secret/i);

    // The same job again (a retry, a duplicate): nothing more is recorded.
    expect(await run(item)).toMatchObject({ outcome: 'skipped' });
    expect(await items.types(item)).toHaveLength(4);
  });

  it('completes an upload of unknown size from every part the object store holds', async () => {
    const item = await items.startUpload({ size: null });
    await items.uploadParts(item, [5 * MIB, 100]);
    await items.requestCompletion(item);

    expect(await run(item)).toMatchObject({ outcome: 'ready' });
    expect((await items.attachedAssets(item))[0]?.size).toBe(5 * MIB + 100);
  });

  it('fails a completion with a part missing, keeps the upload open, and completes once the part arrives', async () => {
    const item = await items.startUpload({ size: 10 * MIB + 10 });
    const first = await items.uploadPart(item, 1, randomBytes(5 * MIB));
    const third = await items.uploadPart(item, 3, randomBytes(10));
    await items.requestCompletion(item);

    expect(await run(item)).toMatchObject({ outcome: 'failed', recorded: true });
    expect(await items.status(item)).toBe('failed');
    expect(await items.statusMessage(item)).toBe(
      `part 2 of 3 is missing: upload it again (POST /api/v1/portal/items/${item.id}/upload/urls gives fresh URLs) ` +
        'and complete again',
    );
    expect(await context.objectStore.listParts(item.plan.key, item.plan.uploadId)).toHaveLength(2);

    const second = await items.uploadPart(item, 2, randomBytes(5 * MIB));
    await items.requestCompletion(item, [
      { partNumber: 1, etag: first },
      { partNumber: 2, etag: second },
      { partNumber: 3, etag: third },
    ]);
    expect(await run(item)).toMatchObject({ outcome: 'ready', recorded: true });
    expect(await items.types(item)).toEqual([
      'ItemUploadStarted',
      'UploadCompletionRequested',
      'UploadFailed',
      'UploadCompletionRequested',
      'AssetAttached',
      'UploadCompleted',
    ]);
  });

  it('fails a completion that names a part with the wrong ETag', async () => {
    const item = await items.startUpload({ size: 5 * MIB + 10 });
    const { parts } = await items.uploadParts(item, [5 * MIB, 10]);
    const wrong = '"0123456789abcdef0123456789abcdef"';
    await items.requestCompletion(item, [
      parts[0] ?? { partNumber: 1, etag: '' },
      { partNumber: 2, etag: wrong },
    ]);

    expect(await run(item)).toMatchObject({ outcome: 'failed' });
    const message = await items.statusMessage(item);
    expect(message).toContain(
      `part 2 was named with ETag ${wrong}, but object storage holds ETag ${parts[1]?.etag ?? ''}`,
    );
    expect(message).toContain('complete with the ETags the part uploads answered');
    expect(await context.objectStore.listParts(item.plan.key, item.plan.uploadId)).toHaveLength(2);
  });

  it('names the part whose size differs from the plan', async () => {
    const item = await items.startUpload({ size: 10 * MIB });
    await items.uploadParts(item, [5 * MIB, 3 * MIB]);
    await items.requestCompletion(item);

    expect(await run(item)).toMatchObject({ outcome: 'failed' });
    expect(await items.statusMessage(item)).toMatch(
      /^received 8 MiB of 10 MiB \(8388608 of 10485760 bytes\): part 2 holds 3145728 bytes, 5242880 expected; upload the parts again/,
    );
  });

  it('reports what S3 refuses (EntityTooSmall) in words, leaving the upload open', async () => {
    const item = await items.startUpload({ size: null });
    await items.uploadParts(item, [1000, 1000]);
    await items.requestCompletion(item);

    expect(await run(item)).toMatchObject({ outcome: 'failed' });
    expect(await items.statusMessage(item)).toMatch(
      /^object storage refused to assemble the parts \(EntityTooSmall\): every part except the last must be at least 5 MiB/,
    );
    expect(await context.objectStore.listParts(item.plan.key, item.plan.uploadId)).toHaveLength(2);
  });

  it.each<CompletionStep>(['parts-checked', 'object-completed', 'object-verified', 'events-appended'])(
    'survives a worker dying after %s: the retry records one asset and one completion',
    async (step) => {
      const item = await items.startUpload({ size: 5 * MIB + 77 });
      await items.uploadParts(item, [5 * MIB, 77]);
      await items.requestCompletion(item);
      const dieAt = (reached: CompletionStep) => {
        if (reached === step) throw new SimulatedCrash(step);
      };

      await expect(run(item, { afterStep: dieAt })).rejects.toBeInstanceOf(SimulatedCrash);
      const retried = await run(item, {}, 1);

      expect(retried).toMatchObject({ outcome: step === 'events-appended' ? 'skipped' : 'ready' });
      const types = await items.types(item);
      expect(types.filter((type) => type === 'AssetAttached')).toHaveLength(1);
      expect(types.filter((type) => type === 'UploadCompleted')).toHaveLength(1);
      expect(types).not.toContain('UploadFailed');
      expect(await items.attachedAssets(item)).toMatchObject([
        { id: assetIdOf(item.plan.uploadId), size: 5 * MIB + 77 },
      ]);
    },
  );

  it('records one outcome when two workers run the same completion at once', async () => {
    const item = await items.startUpload({ size: 5 * MIB + 1 });
    await items.uploadParts(item, [5 * MIB, 1]);
    await items.requestCompletion(item);

    const outcomes = await Promise.all([run(item), run(item), run(item)]);

    expect(outcomes.every((outcome) => outcome.outcome === 'ready' || outcome.outcome === 'skipped')).toBe(
      true,
    );
    expect(outcomes.filter((outcome) => outcome.outcome === 'ready' && outcome.recorded)).toHaveLength(1);
    expect(await items.types(item)).toEqual([
      'ItemUploadStarted',
      'UploadCompletionRequested',
      'AssetAttached',
      'UploadCompleted',
    ]);
  });

  it('aborts the upload of an item deleted while its completion waited', async () => {
    const item = await items.startUpload({ size: 100 });
    await items.uploadParts(item, [100]);
    await items.requestCompletion(item);
    await items.deleteObject('item', item.id);

    expect(await run(item)).toEqual({ outcome: 'aborted' });
    expect(await items.types(item)).toEqual([
      'ItemUploadStarted',
      'UploadCompletionRequested',
      'PortalObjectDeleted',
      'UploadAborted',
    ]);
    expect(await context.objectStore.listParts(item.plan.key, item.plan.uploadId)).toBeNull();
    expect(await run(item)).toMatchObject({ outcome: 'skipped' });
  });

  it('removes the assembled object of an item deleted while S3 assembled it, leaving no asset', async () => {
    const item = await items.startUpload({ size: 100 });
    await items.uploadParts(item, [100]);
    await items.requestCompletion(item);
    const deleteMidway = async (reached: CompletionStep) => {
      if (reached === 'object-verified') await items.deleteObject('item', item.id);
    };

    expect(await run(item, { afterStep: deleteMidway })).toEqual({ outcome: 'aborted' });
    expect(await items.types(item)).toEqual([
      'ItemUploadStarted',
      'UploadCompletionRequested',
      'PortalObjectDeleted',
      'UploadAborted',
    ]);
    expect(await context.objectStore.headObject(item.plan.key)).toBeNull();
  });

  it('enqueues a completion requested again while the job that failed the last one was finishing', async () => {
    const item = await items.startUpload({ size: 5 * MIB + 1 });
    await items.uploadPart(item, 1, randomBytes(5 * MIB));
    await items.requestCompletion(item);
    const job = jobFor(item);
    expect(await run(item)).toMatchObject({ outcome: 'failed' });
    // Nothing new was asked: nothing to enqueue.
    expect(await requeueIfRequestedAgain(context.deps(), job.data)).toBe(false);

    await items.uploadPart(item, 2, randomBytes(1));
    await items.requestCompletion(item);
    // The API's enqueue was dropped (the finishing job still held the id): the worker enqueues it.
    expect(await requeueIfRequestedAgain(context.deps(), job.data)).toBe(true);
    const queued = await context.queue.queue.getJob(completionJobId(item.plan.uploadId));
    expect(queued?.data).toEqual({ itemId: item.id, uploadId: item.plan.uploadId, requestId: null });
    await queued?.remove();
  });

  describe('with object storage unreachable', () => {
    const dead = new S3ObjectStore({
      ...s3SettingsOf(testConfig),
      endpoint: 'http://127.0.0.1:9',
      publicEndpoint: 'http://127.0.0.1:9',
    });
    afterAll(() => {
      dead.close();
    });

    it('throws for a retry on early attempts, records a clear failure on the last, and loses nothing', async () => {
      const item = await items.startUpload({ size: 5 * MIB + 5 });
      await items.uploadParts(item, [5 * MIB, 5]);
      await items.requestCompletion(item);

      await expect(run(item, { objectStore: dead }, 0)).rejects.toThrow(/object storage unreachable/);
      await expect(run(item, { objectStore: dead }, 1)).rejects.toThrow(/object storage unreachable/);
      expect(await items.status(item)).toBe('processing');

      expect(await run(item, { objectStore: dead }, 2)).toEqual({
        outcome: 'failed',
        statusMessage: 'object storage was unreachable after 3 attempts; complete again to retry',
        recorded: true,
      });
      expect(await items.status(item)).toBe('failed');

      // The parts are still there: completing again with storage back makes the item ready.
      await items.requestCompletion(item);
      expect(await run(item)).toMatchObject({ outcome: 'ready', recorded: true });
      expect((await items.attachedAssets(item))[0]?.size).toBe(5 * MIB + 5);
    });
  });
});
