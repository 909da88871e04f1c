import { describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call, createCatalog, createCollection, expectCommand } from './support/http.js';
import { createItem, fileOf, uploadParts, waitForStatus } from './support/uploads.js';

/**
 * Items are answered from the JSON the projector stores for each (docs/stac.md, "Stored item JSON").
 * Every change to an item is seen on its next read, single or in a page: the stored text never lags
 * behind its row, whichever write changed it (an upload completed and its asset attached, a metadata
 * patch, a move to another collection).
 */

useSignedInCaller();

const STAC = '/api/v1/stac';

interface StacItemBody {
  id: string;
  collection?: string;
  stac_extensions: string[];
  properties: Record<string, unknown>;
  assets: Record<string, { href: string; 'file:size'?: number }>;
  links: { rel: string; href: string }[];
}

/** The item as a single read and as the one feature of a search page answer it: they must agree. */
async function readItem(
  id: string,
  collection: string,
): Promise<{ item: StacItemBody; etag: string | null }> {
  const single = await call<StacItemBody>('GET', `${STAC}/collections/${collection}/items/${id}`);
  expect(single.status).toBe(200);
  const page = await call<{ features: StacItemBody[] }>('GET', `${STAC}/search?ids=${id}`);
  expect(page.status).toBe(200);
  expect(page.body.features).toEqual([single.body]);
  const listed = await call<{ features: StacItemBody[] }>('GET', `${STAC}/collections/${collection}/items`);
  expect(listed.body.features.find((feature) => feature.id === id)).toEqual(single.body);
  return { item: single.body, etag: single.headers.get('etag') };
}

describe('an item read from its stored JSON', () => {
  it('changes as soon as an upload completes, its metadata is patched and it moves', async () => {
    const catalog = await createCatalog({ title: 'Stored JSON catalog', visibility: 'public' });
    const first = await createCollection({ title: 'Stored JSON first', parentId: catalog });
    const second = await createCollection({ title: 'Stored JSON second', parentId: catalog });
    const file = fileOf(2048);
    const descriptor = await createItem({
      title: 'Stored JSON scene',
      parentId: first,
      size: file.length,
      fileName: 'scene.bin',
      bbox: [1, 2, 3, 4],
      datetime: '2024-05-06T07:08:09Z',
    });
    const id = descriptor.portalItemId;

    const uploading = await readItem(id, first);
    expect(uploading.item.assets).toEqual({});
    expect(uploading.item.stac_extensions).toEqual([]);

    await uploadParts(descriptor, file);
    const complete = await call('POST', `/api/v1/portal/items/${id}/upload/complete`);
    expect(complete.status).toBe(202);
    await waitForStatus(id, ['ready']);
    const ready = await readItem(id, first);
    expect(ready.item.assets['scene.bin']).toMatchObject({ 'file:size': file.length });
    expect(ready.item.assets['scene.bin']?.href).toMatch(new RegExp(`/api/v1/portal/items/${id}/assets/`));
    expect(ready.item.stac_extensions).toHaveLength(1);
    expect(ready.item.properties.updated).not.toBe(uploading.item.properties.updated);
    expect(ready.etag).not.toBe(uploading.etag);

    const patched = await call('PATCH', `${STAC}/collections/${first}/items/${id}`, {
      body: { properties: { 'eo:cloud_cover': 12 } },
    });
    await expectCommand(patched, 204, 'patch');
    const afterPatch = await readItem(id, first);
    expect(afterPatch.item.properties['eo:cloud_cover']).toBe(12);
    expect(afterPatch.item.assets).toEqual(ready.item.assets);
    expect(afterPatch.etag).toBe(patched.headers.get('etag'));

    const moved = await call('POST', `/api/v1/portal/items/${id}/move`, { body: { parentId: second } });
    await expectCommand(moved, 200, 'move');
    expect((await call('GET', `${STAC}/collections/${first}/items/${id}`)).status).toBe(404);
    const afterMove = await readItem(id, second);
    expect(afterMove.item.collection).toBe(second);
    expect(afterMove.item.links.find((link) => link.rel === 'self')?.href).toMatch(
      new RegExp(`/collections/${second}/items/${id}$`),
    );
    expect(afterMove.item.properties['eo:cloud_cover']).toBe(12);
  }, 60_000);
});
