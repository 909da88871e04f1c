import { beforeAll, describe, expect, it } from 'vitest';
import { createItemAnswerSchema, portalItemRecordSchema } from '@portal/contracts';
import { useSignedInCaller } from './support/auth.js';
import { call, createCollection, expectCommand, expectMatchesContract } from './support/http.js';

/**
 * Items whose assets are registered by href (docs/stac.md, Assets by href): created without an upload
 * (`ready` at once), their assets changed by PATCH as a merge patch, read back through the portal API,
 * STAC, the history, as-of reads and the audit feed.
 */

useSignedInCaller();

interface HrefAssetRecord {
  id: string;
  key: string;
  href: string;
  source: string;
  asset: Record<string, unknown>;
}
interface ItemRecord {
  status: string;
  revision: number;
  assets: HrefAssetRecord[];
}
interface HistoryEntry {
  type: string;
  change: Record<string, unknown>;
}

const thumbnail = {
  href: 'https://example.org/scenes/a/thumb.png',
  type: 'image/png',
  title: 'Thumbnail',
  roles: ['thumbnail'],
};
// Extension fields of every JSON type, kept as sent.
const visual = {
  href: 's3://public-bucket/scenes/a/visual.tif',
  type: 'image/tiff; application=geotiff; profile=cloud-optimized',
  roles: ['visual', 'data'],
  'eo:bands': [{ name: 'red', center_wavelength: 0.665 }],
  'proj:epsg': 32633,
  'raster:nodata': null,
  'file:checksum': '1220abcd',
  'alternate:public': true,
};

const anyId = expect.any(String) as unknown;

let collectionId = '';

beforeAll(async () => {
  collectionId = await createCollection({ title: 'Href assets', visibility: 'public' });
}, 60_000);

async function register(fields: Record<string, unknown>): Promise<string> {
  const created = await call<{ portalItemId: string }>('POST', '/api/v1/portal/items/create', {
    body: { title: 'Scene by href', links: [], parentId: collectionId, ...fields },
  });
  await expectCommand(created, 201, 'register item');
  expectMatchesContract(createItemAnswerSchema, created.body);
  expect(Object.keys(created.body)).toEqual(['portalItemId']);
  expect(created.headers.get('location')).toBe(`/api/v1/portal/items/${created.body.portalItemId}`);
  return created.body.portalItemId;
}

const record = async (id: string) => {
  const response = await call<ItemRecord>('GET', `/api/v1/portal/items/${id}`);
  expect(response.status).toBe(200);
  expectMatchesContract(portalItemRecordSchema, response.body);
  return response.body;
};

const stacItem = async (id: string) => {
  const response = await call<{ assets: Record<string, unknown>; stac_extensions: string[] }>(
    'GET',
    `/api/v1/stac/collections/${collectionId}/items/${id}`,
  );
  expect(response.status).toBe(200);
  return response.body;
};

const patchAssets = (id: string, assets: Record<string, unknown>) =>
  call<{ portalItemId?: string; message?: string }>('PATCH', `/api/v1/portal/items/${id}`, {
    body: { assets },
  });

describe('an item created with assets by href', () => {
  it('is ready at once, without an upload, and lists its assets as sent in the portal API and STAC', async () => {
    const id = await register({ assets: { thumbnail, visual }, properties: { 'eo:cloud_cover': 12.5 } });
    const item = await record(id);
    expect(item.status).toBe('ready');
    expect(item.assets).toEqual([
      { id: anyId, key: 'thumbnail', href: thumbnail.href, source: 'href', asset: thumbnail },
      { id: anyId, key: 'visual', href: visual.href, source: 'href', asset: visual },
    ]);
    const stac = await stacItem(id);
    expect(stac.assets).toEqual({ thumbnail, visual });
    // Nothing uploaded: the file extension's `file:size` is not the portal's to claim.
    expect(stac.stac_extensions).toEqual([]);
    const upload = await call('GET', `/api/v1/portal/items/${id}/upload`);
    expect(upload.status).toBe(404);
    const complete = await call('POST', `/api/v1/portal/items/${id}/upload/complete`, { body: {} });
    expect(complete.status).toBe(409);
    expect(complete.body).toMatchObject({
      message: `item ${id} has no upload: its assets are registered by href`,
    });
  });

  it('may have no asset at all (`assets: {}`), and is ready', async () => {
    const id = await register({ assets: {} });
    const item = await record(id);
    expect(item).toMatchObject({ status: 'ready', assets: [] });
    expect((await stacItem(id)).assets).toEqual({});
  });

  it.each([
    ['an upload field beside assets', { assets: { thumbnail }, size: 10 }, /size: does not apply/],
    ['a relative href', { assets: { data: { href: 'scenes/a.tif' } } }, /href must be an absolute/],
    ['an ftp href', { assets: { data: { href: 'ftp://example.org/a.tif' } } }, /http, https or s3/],
    ['an asset without href', { assets: { data: { type: 'image/tiff' } } }, /href/],
    ['a key with a slash', { assets: { 'a/b': thumbnail } }, /asset key/],
    ['roles that are not strings', { assets: { data: { href: thumbnail.href, roles: [1] } } }, /roles/],
    ['an asset that is not an object', { assets: { data: 'https://example.org/a.tif' } }, /asset object/],
  ])('refuses %s with 400 and a message', async (_what, fields, message) => {
    const response = await call<{ message: string }>('POST', '/api/v1/portal/items/create', {
      body: { title: 'Bad', links: [], parentId: collectionId, ...fields },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });
});

describe('in a batch', () => {
  it('registers an item by href beside one with an upload, each answering its own shape', async () => {
    const response = await call<{ results: { status: number; body: Record<string, unknown> }[] }>(
      'POST',
      '/',
      {
        body: {
          commands: [
            {
              type: 'createItem',
              body: { title: 'Batch by href', links: [], parentId: collectionId, assets: { thumbnail } },
            },
            {
              type: 'createItem',
              body: { title: 'Batch upload', links: [], parentId: collectionId, size: 10 },
            },
          ],
        },
      },
    );
    await expectCommand(response, 200, 'batch');
    const [registered, uploading] = response.body.results;
    expect(registered?.status).toBe(201);
    expect(Object.keys(registered?.body ?? {})).toEqual(['portalItemId']);
    expect(uploading?.body).toHaveProperty('uploadId');
    const item = await record(String(registered?.body['portalItemId']));
    expect(item).toMatchObject({ status: 'ready', assets: [{ key: 'thumbnail', asset: thumbnail }] });
  });
});

describe('changing assets by href with PATCH', () => {
  it('adds, replaces and removes keys; a replaced key keeps its id; history, as-of and audit see it', async () => {
    const id = await register({ assets: { thumbnail, visual } });
    const before = await record(id);
    const thumbnailId = before.assets.find((asset) => asset.key === 'thumbnail')?.id;

    const metadata = { href: 'https://example.org/scenes/a/metadata.xml', roles: ['metadata'] };
    const newThumbnail = { href: 'https://example.org/scenes/a/thumb-2.webp', type: 'image/webp' };
    const patched = await patchAssets(id, { thumbnail: newThumbnail, visual: null, metadata });
    await expectCommand(patched, 200, 'patch assets');

    const after = await record(id);
    expect(after.assets.map(({ key, id: assetId, asset }) => ({ key, assetId, asset }))).toEqual([
      { key: 'thumbnail', assetId: thumbnailId, asset: newThumbnail },
      { key: 'metadata', assetId: anyId, asset: metadata },
    ]);
    expect((await stacItem(id)).assets).toEqual({ thumbnail: newThumbnail, metadata });

    // The same patch again changes nothing: no new revision.
    const again = await patchAssets(id, { thumbnail: newThumbnail, visual: null });
    await expectCommand(again, 200, 'patch assets again');
    expect((await record(id)).revision).toBe(after.revision);

    const history = await call<{ items: HistoryEntry[] }>('GET', `/api/v1/portal/items/${id}/history`);
    expect(history.body.items.map((entry) => entry.type)).toEqual(['ItemRegistered', 'PortalObjectUpdated']);
    const [created, updated] = history.body.items;
    expect(created?.change['assets']).toEqual([
      { id: thumbnailId, key: 'thumbnail', asset: thumbnail },
      { id: anyId, key: 'visual', asset: visual },
    ]);
    expect(updated?.change['assets']).toMatchObject({
      before: [{ key: 'thumbnail', asset: thumbnail }, { key: 'visual' }],
      after: [{ key: 'thumbnail', asset: newThumbnail }, { key: 'metadata' }],
    });

    const past = await call<ItemRecord>('GET', `/api/v1/portal/items/${id}?asOf=0`);
    expect(past.body.assets.map((asset) => asset.asset)).toEqual([thumbnail, visual]);

    const audit = await call<{ items: { type: string }[] }>('GET', `/api/v1/audit/events?objectId=${id}`);
    expect(audit.status).toBe(200);
    expect(audit.body.items.map((event) => event.type)).toEqual(['ItemRegistered', 'PortalObjectUpdated']);
  });

  it('adds assets by href to an item with an upload, beside its file', async () => {
    const created = await call<{ portalItemId: string }>('POST', '/api/v1/portal/items/create', {
      body: { title: 'Uploaded scene', links: [], parentId: collectionId, fileName: 'scene.tif' },
    });
    await expectCommand(created, 201, 'create item');
    const id = created.body.portalItemId;
    await expectCommand(await patchAssets(id, { thumbnail }), 200, 'patch assets');
    const item = await record(id);
    expect(item.status).toBe('uploading');
    expect(item.assets).toEqual([expect.objectContaining({ key: 'thumbnail', source: 'href' })]);
  });

  it.each([
    ['a bad href', { data: { href: 'nope' } }, /href must be an absolute/],
    ['a key starting with a dash', { '-x': thumbnail }, /asset key/],
  ])('refuses %s with 400', async (_what, assets, message) => {
    const id = await register({ assets: {} });
    const response = await patchAssets(id, assets);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });

  it('refuses assets on a collection with 400', async () => {
    const response = await patchAssets(collectionId, { thumbnail });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/assets/);
  });
});
