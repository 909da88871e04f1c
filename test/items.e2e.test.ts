import { describe, expect, it } from 'vitest';
import { portalItemRecordSchema, uploadDescriptorSchema, uploadStatusSchema } from '@portal/contracts';
import {
  call,
  createCatalog,
  createCollection,
  expectCommand,
  expectMatchesContract,
} from './support/http.js';
import {
  createItem,
  download,
  fileOf,
  MIB,
  partOf,
  putPart,
  sha256,
  uploadParts,
  waitForStatus,
} from './support/uploads.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

describe('item upload, end to end through the upload worker', () => {
  it('uploads a file in parts through presigned URLs and serves the same bytes once ready', async () => {
    const collectionId = await createCollection({ title: 'Scenes' });
    const file = fileOf(12 * MIB + 3);
    const descriptor = await createItem({
      title: 'Scene 1',
      parentId: collectionId,
      size: file.length,
      partSize: 5 * MIB,
      fileName: 'scene 1.tif',
      contentType: 'image/tiff',
    });
    expectMatchesContract(uploadDescriptorSchema, descriptor);
    expect(Object.keys(descriptor).sort()).toEqual([
      'bucket',
      'key',
      'partSize',
      'partUrls',
      'portalItemId',
      'uploadId',
    ]);
    expect(descriptor.partSize).toBe(5 * MIB);
    expect(descriptor.partUrls.map((part) => part.partNumber)).toEqual([1, 2, 3]);
    expect(descriptor.key).toBe(`items/${descriptor.portalItemId}/scene_1.tif`);

    const uploading = await call('GET', `/api/v1/portal/items/${descriptor.portalItemId}`);
    expect(uploading.body).toMatchObject({ status: 'uploading', kind: 'item', assets: [] });

    const parts = await uploadParts(descriptor, file);
    const status = await call('GET', `/api/v1/portal/items/${descriptor.portalItemId}/upload`);
    expect(status.status).toBe(200);
    expectMatchesContract(uploadStatusSchema, status.body);
    expect(status.body).toMatchObject({ status: 'uploading', partCount: 3, bytesReceived: file.length });

    const completed = await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`, {
      body: { parts },
    });
    expect(completed.status).toBe(202);
    expect(completed.body).toEqual({
      portalItemId: descriptor.portalItemId,
      uploadId: descriptor.uploadId,
      status: 'processing',
    });

    const ready = await waitForStatus(descriptor.portalItemId, ['ready', 'failed']);
    expect(ready.status).toBe('ready');
    expectMatchesContract(portalItemRecordSchema, ready);
    expect(ready.assets).toHaveLength(1);
    const [asset] = ready.assets;
    expect(asset).toMatchObject({ key: descriptor.key, size: file.length });
    const { redirect, bytes } = await download(asset?.href ?? '');
    expect(redirect.headers.get('cache-control')).toBe('no-store');
    expect(sha256(bytes)).toBe(sha256(file));
  });

  it('serves a file uploaded as text/html as an attachment, never as a page of the bucket', async () => {
    const collectionId = await createCollection({ title: 'Uploaded pages' });
    const file = Buffer.from('<html><script>alert(document.domain)</script></html>');
    const descriptor = await createItem({
      parentId: collectionId,
      size: file.length,
      contentType: 'text/html',
    });
    const parts = await uploadParts(descriptor, file);
    await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`, {
      body: { parts },
    });
    const ready = await waitForStatus(descriptor.portalItemId, ['ready', 'failed']);
    expect(ready.status).toBe('ready');

    const { redirect, file: served, bytes } = await download(ready.assets[0]?.href ?? '');
    expect(redirect.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="data"/);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(bytes.equals(file)).toBe(true);
  });

  it('takes a 200 MiB file in the default 64 MiB parts, byte-identical after download', async () => {
    const collectionId = await createCollection({ title: 'Large files' });
    const file = fileOf(200 * MIB);
    const descriptor = await createItem({ parentId: collectionId, size: file.length, fileName: 'big.bin' });
    expect(descriptor.partSize).toBe(64 * MIB);
    expect(descriptor.partUrls).toHaveLength(4);
    const parts = await uploadParts(descriptor, file);
    await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`, {
      body: { parts },
    });
    const ready = await waitForStatus(descriptor.portalItemId, ['ready', 'failed'], 60_000);
    expect(ready.status).toBe('ready');
    expect(ready.assets[0]?.size).toBe(200 * MIB);
    expect(sha256((await download(ready.assets[0]?.href ?? '')).bytes)).toBe(sha256(file));
  });

  it('completes with every part the object store holds when the client names none', async () => {
    const catalogId = await createCatalog({ title: 'Archive' });
    const file = fileOf(6 * MIB);
    const descriptor = await createItem({ parentId: catalogId, size: file.length, partSize: 5 * MIB });
    await uploadParts(descriptor, file);
    const completed = await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`);
    expect(completed.status).toBe(202);
    const ready = await waitForStatus(descriptor.portalItemId, ['ready', 'failed']);
    expect(ready).toMatchObject({ status: 'ready' });
    expect(sha256((await download(ready.assets[0]?.href ?? '')).bytes)).toBe(sha256(file));
  });

  it('reports the assembled size once ready when the upload declared none', async () => {
    const catalogId = await createCatalog({ title: 'Unsized' });
    const file = fileOf(1234);
    const descriptor = await createItem({ parentId: catalogId });
    expect(descriptor.partUrls.map((part) => part.partNumber)).toEqual([1]);
    await uploadParts(descriptor, file);
    const open = await call('GET', `/api/v1/portal/items/${descriptor.portalItemId}/upload`);
    expect(open.body).toMatchObject({ status: 'uploading', size: null, bytesReceived: 1234 });

    await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`);
    expect((await waitForStatus(descriptor.portalItemId, ['ready', 'failed'])).status).toBe('ready');
    const ready = await call('GET', `/api/v1/portal/items/${descriptor.portalItemId}/upload`);
    expectMatchesContract(uploadStatusSchema, ready.body);
    expect(ready.body).toMatchObject({ status: 'ready', size: 1234, partCount: null });
  });

  it('fails a completion with a part missing, says which, and completes once the part arrives', async () => {
    const collectionId = await createCollection();
    const file = fileOf(11 * MIB);
    const descriptor = await createItem({ parentId: collectionId, size: file.length, partSize: 5 * MIB });
    await uploadParts(descriptor, file, [1, 3]);
    await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`);
    const failed = await waitForStatus(descriptor.portalItemId, ['failed', 'ready']);
    expect(failed.status).toBe('failed');
    expect(failed.statusMessage).toMatch(/part 2 of 3 is missing/);

    const urls = await call<{ partUrls: { partNumber: number; url: string }[] }>(
      'POST',
      `/api/v1/portal/items/${descriptor.portalItemId}/upload/urls`,
      { body: { partNumbers: [2] } },
    );
    expect(urls.status).toBe(200);
    await putPart(urls.body.partUrls[0]?.url ?? '', partOf(file, descriptor.partSize, 2));
    expect(
      (await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`)).status,
    ).toBe(202);
    const ready = await waitForStatus(descriptor.portalItemId, ['ready']);
    expect(ready.statusMessage ?? null).toBeNull();
    expect(sha256((await download(ready.assets[0]?.href ?? '')).bytes)).toBe(sha256(file));
  });

  it('fails a completion naming a part with the wrong ETag', async () => {
    const collectionId = await createCollection();
    const file = fileOf(1024);
    const descriptor = await createItem({ parentId: collectionId, size: file.length });
    await uploadParts(descriptor, file);
    await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`, {
      body: { parts: [{ partNumber: 1, etag: '"0123456789abcdef0123456789abcdef"' }] },
    });
    const failed = await waitForStatus(descriptor.portalItemId, ['failed', 'ready']);
    expect(failed.status).toBe('failed');
    expect(failed.statusMessage).toMatch(/part 1/);
  });

  it('takes a repeated completion calmly and refuses one after the item is ready', async () => {
    const collectionId = await createCollection();
    const file = fileOf(2048);
    const descriptor = await createItem({ parentId: collectionId, size: file.length });
    await uploadParts(descriptor, file);
    const path = `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`;
    const [first, second] = await Promise.all([call('POST', path), call('POST', path)]);
    expect([first.status, second.status]).toEqual([202, 202]);
    const ready = await waitForStatus(descriptor.portalItemId, ['ready', 'failed']);
    expect(ready.status).toBe('ready');
    expect(ready.assets).toHaveLength(1);
    const again = await call('POST', path);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE');
    expect(again.body.message).toMatch(/upload is complete/);
  });

  it('aborts an upload: the parts are gone and the item ends aborted', async () => {
    const collectionId = await createCollection();
    const file = fileOf(5 * MIB + 10);
    const descriptor = await createItem({ parentId: collectionId, size: file.length, partSize: 5 * MIB });
    await uploadParts(descriptor, file, [1]);
    const aborted = await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/abort`);
    await expectCommand(aborted, 200, 'abort');
    expect(aborted.body).toMatchObject({ status: 'aborted' });
    expect((await call('GET', `/api/v1/portal/items/${descriptor.portalItemId}`)).body).toMatchObject({
      status: 'aborted',
    });
    const status = await call('GET', `/api/v1/portal/items/${descriptor.portalItemId}/upload`);
    expect(status.body).toMatchObject({ status: 'aborted', partsReceived: [], bytesReceived: 0 });
    const late = await fetch(descriptor.partUrls[1]?.url ?? '', {
      method: 'PUT',
      body: partOf(file, 5 * MIB, 2),
    });
    expect(late.status).toBe(404);
    const complete = await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`);
    expect(complete.status).toBe(409);
    await expectCommand(
      await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/abort`),
      200,
      'abort again',
    );
  });

  it('answers 404 to an abort of a deleted item', async () => {
    const collectionId = await createCollection();
    const descriptor = await createItem({ parentId: collectionId, size: 100 });
    await expectCommand(
      await call('DELETE', `/api/v1/portal/items/${descriptor.portalItemId}`),
      200,
      'delete',
    );
    const aborted = await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/abort`);
    expect(aborted.status).toBe(404);
    expect(aborted.body.message).toMatch(/not found/);
  });

  it('computes the collection extent from its ready items', async () => {
    const collectionId = await createCollection({ title: 'Extent' });
    const items = [
      { bbox: [10, 40, 12, 42], datetime: '2024-05-01T10:00:00Z' },
      {
        bbox: [11, 38, 15, 41],
        start_datetime: '2024-04-01T00:00:00Z',
        end_datetime: '2024-04-30T00:00:00Z',
      },
    ];
    for (const metadata of items) {
      const file = fileOf(100);
      const descriptor = await createItem({ parentId: collectionId, size: file.length, ...metadata });
      await uploadParts(descriptor, file);
      await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`);
      await waitForStatus(descriptor.portalItemId, ['ready']);
    }
    // An uploading item with a bbox far away does not count.
    await createItem({ parentId: collectionId, size: 100, bbox: [-100, -50, -90, -40] });
    const collection = await call<{ extent: unknown }>('GET', `/api/v1/collections/${collectionId}`);
    expect(collection.body.extent).toEqual({
      spatial: { bbox: [[10, 38, 15, 42]] },
      temporal: { interval: [['2024-04-01T00:00:00.000Z', '2024-05-01T10:00:00.000Z']] },
    });
  });

  it('lists items by parent and status', async () => {
    const collectionId = await createCollection();
    const file = fileOf(64);
    const ready = await createItem({ parentId: collectionId, size: file.length, title: 'Ready one' });
    await uploadParts(ready, file);
    await call('POST', `/api/v1/portal/items/${ready.portalItemId}/upload/complete`);
    await waitForStatus(ready.portalItemId, ['ready']);
    const pending = await createItem({ parentId: collectionId, size: 64, title: 'Pending one' });

    const all = await call<{ items: { id: string }[] }>(
      'GET',
      `/api/v1/portal/items/?parentId=${collectionId}`,
    );
    expect(all.body.items.map((item) => item.id)).toEqual([ready.portalItemId, pending.portalItemId]);
    const onlyReady = await call<{ items: { id: string; assets: unknown[] }[] }>(
      'GET',
      `/api/v1/portal/items/?parentId=${collectionId}&status=ready&kind=item`,
    );
    expect(onlyReady.body.items.map((item) => item.id)).toEqual([ready.portalItemId]);
    expect(onlyReady.body.items[0]?.assets).toHaveLength(1);
    const page = await call<{ items: unknown[]; next: string | null }>(
      'GET',
      `/api/v1/portal/items/?parentId=${collectionId}&limit=1`,
    );
    expect(page.body.items).toHaveLength(1);
    expect(page.body.next).not.toBeNull();
    const bad = await call('GET', '/api/v1/portal/items/?status=done');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/status: must be one of uploading/);
  });
});

describe('item create: bad input is refused with a message naming the field', () => {
  it.each([
    [{ links: [] }, 400, /title: is required/],
    [{ title: 'x', links: [], size: 60 * 1024 ** 3, partSize: 5 * MIB }, 400, /more than the 10000 allowed/],
    [{ title: 'x', links: [], partSize: 1024 }, 400, /partSize: must be at least 5242880 bytes/],
    [{ title: 'x', links: [], size: -1 }, 400, /size: must be a positive number of bytes/],
    [{ title: 'x', links: [], bbox: [0, 10, 1, 5] }, 400, /bbox/],
    [{ title: 'x', links: [], datetime: 'yesterday' }, 400, /datetime/],
    [{ title: 'x', links: [], contentType: 'text/plain; x=€' }, 400, /contentType: must be a media type/],
  ])('%j answers %i', async (body, status, message) => {
    const collectionId = await createCollection();
    const response = await call('POST', '/api/v1/portal/items/create', {
      body: { parentId: collectionId, ...body },
    });
    expect(response.status).toBe(status);
    expect(response.body.message).toMatch(message);
  });

  it('refuses the root level, a missing parent and an item as parent', async () => {
    const root = await call('POST', '/api/v1/portal/items/create', { body: { title: 'x', links: [] } });
    expect(root.status).toBe(400);
    expect(root.body.message).toMatch(/^parentId: is required/);
    const missing = await call('POST', '/api/v1/portal/items/create', {
      body: { title: 'x', links: [], parentId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(missing.status).toBe(409);
    expect(missing.body).toMatchObject({ code: 'PARENT_NOT_FOUND' });
    const collectionId = await createCollection();
    const item = await createItem({ parentId: collectionId, size: 10 });
    const underItem = await call('POST', '/api/v1/portal/items/create', {
      body: { title: 'x', links: [], parentId: item.portalItemId },
    });
    expect(underItem.status).toBe(409);
  });

  it('refuses fresh URLs for parts beyond the upload and for an item that is not uploading', async () => {
    const collectionId = await createCollection();
    const descriptor = await createItem({ parentId: collectionId, size: 100 });
    const beyond = await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/urls`, {
      body: { partNumbers: [2] },
    });
    expect(beyond.status).toBe(400);
    expect(beyond.body).toMatchObject({ message: 'part 2 is beyond the 1 parts of this upload' });
    const catalogId = await createCatalog();
    const notItem = await call('POST', `/api/v1/portal/items/${catalogId}/upload/urls`, {
      body: { partNumbers: [1] },
    });
    expect(notItem.status).toBe(404);
    const unknownAsset = await call(
      'GET',
      `/api/v1/portal/items/${descriptor.portalItemId}/assets/00000000-0000-4000-8000-000000000000`,
    );
    expect(unknownAsset.status).toBe(404);
  });
});
