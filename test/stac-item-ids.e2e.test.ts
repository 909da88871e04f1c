import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call, createCollection, expectCommand, waitForPosition } from './support/http.js';
import { postNdjson } from './support/ndjson.js';

/**
 * Items named by their STAC client (docs/stac.md, "Item ids"): an Item added with an id that is not a
 * UUID keeps it as its STAC id and path, in the collection it was added to; a second one of that name
 * there is refused, the name of a deleted or moved item can be given again, and the portal API shows
 * the name beside the item's UUID. Through HTTP only.
 */

useSignedInCaller();

const STAC = '/api/v1/stac';

interface StacItem {
  id: string;
  collection?: string;
  properties: Record<string, unknown>;
  links: { rel: string; href: string }[];
}

interface PortalRecord {
  id: string;
  title: string;
  stacId?: string;
  parentId: string;
}

function item(id: string, properties: Record<string, unknown> = {}) {
  return {
    type: 'Feature',
    stac_version: '1.0.0',
    id,
    geometry: { type: 'Point', coordinates: [98.5, 18.8] },
    bbox: [98.5, 18.8, 98.5, 18.8],
    properties: { datetime: '2023-04-23T03:45:00Z', 'eo:cloud_cover': 7, ...properties },
    links: [],
    assets: { visual: { href: 'https://example.org/scene/visual.tif', roles: ['visual'] } },
  };
}

const itemsOf = (collectionId: string) => `${STAC}/collections/${collectionId}/items`;
const pathOf = (collectionId: string, stacId: string) =>
  `${itemsOf(collectionId)}/${encodeURIComponent(stacId)}`;

/** The portal's records of the items below a collection, by their STAC ids. */
async function portalItemsOf(collectionId: string): Promise<PortalRecord[]> {
  const listed = await call<{ items: PortalRecord[] }>(
    'GET',
    `/api/v1/portal/items/?parentId=${collectionId}&limit=100`,
  );
  expect(listed.status).toBe(200);
  return listed.body.items;
}

async function portalItemNamed(collectionId: string, stacId: string): Promise<PortalRecord> {
  const found = (await portalItemsOf(collectionId)).filter((record) => record.stacId === stacId);
  expect(found).toHaveLength(1);
  return found[0] as PortalRecord;
}

let collectionId = '';
let otherCollectionId = '';

beforeAll(async () => {
  collectionId = await createCollection({ title: 'Named scenes' });
  otherCollectionId = await createCollection({ title: 'Other named scenes' });
}, 60_000);

describe('an Item added under an id of its client', () => {
  const stacId = 'S2A_47XNF_20230423_0_L2A';

  it('keeps the id as its STAC id, path and self link, and the portal shows it beside its UUID', async () => {
    const added = await call<StacItem>('POST', itemsOf(collectionId), { body: item(stacId) });
    await expectCommand(added, 201, 'add named item');
    const url = `${inject('baseUrl')}${pathOf(collectionId, stacId)}`;
    expect(added.headers.get('location')).toBe(url);
    const read = await call<StacItem>('GET', pathOf(collectionId, stacId));
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(stacId);
    expect(read.body.collection).toBe(collectionId);
    expect(read.body.links).toContainEqual(expect.objectContaining({ rel: 'self', href: url }));
    expect(read.body.properties['title']).toBe(stacId);

    const record = await portalItemNamed(collectionId, stacId);
    expect(record.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Its STAC JSON leads to its portal record, by the UUID.
    expect(read.body.links).toContainEqual(
      expect.objectContaining({
        rel: 'alternate',
        href: `${inject('baseUrl')}/api/v1/portal/items/${record.id}`,
      }),
    );
    const byUuid = await call<StacItem>('GET', `${itemsOf(collectionId)}/${record.id}`);
    expect(byUuid.status).toBe(200);
    expect(byUuid.body.id).toBe(stacId);
    const portal = await call<PortalRecord>('GET', `/api/v1/portal/items/${record.id}`);
    expect(portal.body).toMatchObject({ id: record.id, stacId, parentId: collectionId });
  });

  it('refuses a second Item of that id in the collection with 409, and takes it in another', async () => {
    const again = await call<{ message: string }>('POST', itemsOf(collectionId), { body: item(stacId) });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already exists/);
    await expectCommand(
      await call('POST', itemsOf(otherCollectionId), { body: item(stacId, { 'eo:cloud_cover': 70 }) }),
      201,
      'add the same id elsewhere',
    );
    const elsewhere = await call<StacItem>('GET', pathOf(otherCollectionId, stacId));
    expect(elsewhere.body.properties['eo:cloud_cover']).toBe(70);
    const here = await call<StacItem>('GET', pathOf(collectionId, stacId));
    expect(here.body.properties['eo:cloud_cover']).toBe(7);
  });

  it('is found by ids and by a CQL2 filter on id, in GET and POST searches', async () => {
    const collections = [collectionId];
    const byGet = await call<{ features: StacItem[] }>(
      'GET',
      `${STAC}/search?collections=${collectionId}&ids=${stacId},${randomUUID()}`,
    );
    expect(byGet.body.features.map((found) => found.id)).toEqual([stacId]);
    const byPost = await call<{ features: StacItem[] }>('POST', `${STAC}/search`, {
      body: { ids: [stacId] },
    });
    expect(byPost.body.features.map((found) => found.collection).sort()).toEqual(
      [collectionId, otherCollectionId].sort(),
    );
    const filtered = await call<{ features: StacItem[] }>('POST', `${STAC}/search`, {
      body: {
        collections,
        filter: { op: '=', args: [{ property: 'id' }, stacId] },
        'filter-lang': 'cql2-json',
      },
    });
    expect(filtered.body.features.map((found) => found.id)).toEqual([stacId]);
    const text = await call<{ features: StacItem[] }>(
      'GET',
      `${STAC}/search?collections=${collectionId}&filter=${encodeURIComponent(`id LIKE 'S2A_47XNF%'`)}`,
    );
    expect(text.body.features.map((found) => found.id)).toEqual([stacId]);
  });

  it('is replaced and patched by its id; a body naming another id is refused', async () => {
    // Sent back as read (its generated links too), it keeps only the links its client wrote.
    const asRead = (await call<StacItem>('GET', pathOf(collectionId, stacId))).body;
    const own = { rel: 'alternate', href: 'https://example.org/scene.html', type: 'text/html' };
    const put = await call<StacItem>('PUT', pathOf(collectionId, stacId), {
      body: { ...item(stacId, { 'eo:cloud_cover': 12 }), links: [...asRead.links, own] },
      headers: { prefer: 'return=representation' },
    });
    await expectCommand(put, 200, 'replace named item');
    expect(put.headers.get('location')).toBe(`${inject('baseUrl')}${pathOf(collectionId, stacId)}`);
    expect(put.body.id).toBe(stacId);
    expect(put.body.properties['eo:cloud_cover']).toBe(12);
    expect(put.body.links.filter((link) => link.rel === 'alternate').map((link) => link.href)).toEqual([
      asRead.links.find((link) => link.rel === 'alternate')?.href,
      own.href,
    ]);
    const patched = await call('PATCH', pathOf(collectionId, stacId), {
      body: { properties: { 'eo:cloud_cover': 13 } },
    });
    await expectCommand(patched, 204, 'patch named item');
    const read = await call<StacItem>('GET', pathOf(collectionId, stacId));
    expect(read.body.properties['eo:cloud_cover']).toBe(13);
    const other = await call<{ message: string }>('PUT', pathOf(collectionId, stacId), {
      body: item('S2A_OTHER'),
    });
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/is not the item of the path/);
  });

  it('is deleted by its id, and its id can then be given to a new Item', async () => {
    const before = await portalItemNamed(collectionId, stacId);
    await expectCommand(await call('DELETE', pathOf(collectionId, stacId)), 204, 'delete named item');
    expect((await call('GET', pathOf(collectionId, stacId))).status).toBe(404);
    expect((await call('DELETE', pathOf(collectionId, stacId))).status).toBe(204);

    const again = await call<StacItem>('POST', itemsOf(collectionId), {
      body: item(stacId, { 'eo:cloud_cover': 1 }),
    });
    await expectCommand(again, 201, 'add the id again');
    const after = await portalItemNamed(collectionId, stacId);
    expect(after.id).not.toBe(before.id);
    const read = await call<StacItem>('GET', pathOf(collectionId, stacId));
    expect(read.body.properties['eo:cloud_cover']).toBe(1);
    const history = await call<{ items: { type: string }[] }>(
      'GET',
      `/api/v1/portal/items/${after.id}/history`,
    );
    expect(history.body.items.map((entry) => entry.type)).toEqual(['ItemRegistered']);
  });
});

describe('ids a path segment must encode, lists and moves', () => {
  it('answers an id with spaces, # and % under its encoded path', async () => {
    const stacId = 'scene 1#a?b%20';
    await expectCommand(await call('POST', itemsOf(collectionId), { body: item(stacId) }), 201, 'add');
    const read = await call<StacItem>('GET', pathOf(collectionId, stacId));
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(stacId);
    const self = read.body.links.find((candidate) => candidate.rel === 'self');
    expect(self?.href).toBe(`${inject('baseUrl')}${itemsOf(collectionId)}/scene%201%23a%3Fb%2520`);
    const page = await call<{ features: StacItem[] }>('GET', `${itemsOf(collectionId)}?limit=100`);
    expect(page.body.features.map((found) => found.id)).toContain(stacId);
  });

  it('answers a path or an id that no item can hold with 404 and no match, not an error', async () => {
    for (const id of ['%00', '%20padded', 'a%09b']) {
      expect((await call('GET', `${itemsOf(collectionId)}/${id}`)).status).toBe(404);
    }
    const search = await call<{ features: StacItem[] }>('POST', `${STAC}/search`, {
      body: { ids: ['\u0000', 'a\tb', '.'] },
    });
    expect(search.status).toBe(200);
    expect(search.body.features).toEqual([]);
  });

  it('answers an ItemCollection with the ids as given, refusing a repeated one after the first', async () => {
    const ids = ['LC08_L2SP_042034_A', 'LC08_L2SP_042034_B'];
    const added = await call<{ ids: string[] }>('POST', itemsOf(collectionId), {
      body: { type: 'FeatureCollection', features: ids.map((id) => item(id)) },
    });
    await expectCommand(added, 201, 'add named items');
    expect(added.body.ids).toEqual(ids);
    const repeated = await call<{ message: string }>('POST', itemsOf(collectionId), {
      body: { type: 'FeatureCollection', features: [item('LC08_L2SP_042034_C'), item('LC08_L2SP_042034_A')] },
    });
    expect(repeated.status).toBe(409);
    // The Item before the refused one stays added; a refusal carries no position to wait for.
    const first = pathOf(collectionId, 'LC08_L2SP_042034_C');
    await expect.poll(async () => (await call('GET', first)).status, { timeout: 10_000 }).toBe(200);
  });

  it('follows an Item moved to another collection, and frees its id in the first', async () => {
    const stacId = 'moved_scene_1';
    await expectCommand(await call('POST', itemsOf(collectionId), { body: item(stacId) }), 201, 'add');
    const record = await portalItemNamed(collectionId, stacId);
    const target = await createCollection({ title: 'Moved scenes' });
    await expectCommand(
      await call('POST', `/api/v1/portal/items/${record.id}/move`, { body: { parentId: target } }),
      200,
      'move',
    );
    const moved = await call<StacItem>('GET', pathOf(target, stacId));
    expect(moved.status).toBe(200);
    expect(moved.body.id).toBe(stacId);
    expect(moved.body.collection).toBe(target);
    // The moved item holds the name in its new collection: another create of it there is refused.
    const clash = await call<{ message: string }>('POST', itemsOf(target), { body: item(stacId) });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toMatch(/already exists/);
    expect((await call('GET', pathOf(collectionId, stacId))).status).toBe(404);
    await expectCommand(
      await call('POST', itemsOf(collectionId), { body: item(stacId) }),
      201,
      'add the moved id again',
    );
    expect((await call('GET', pathOf(collectionId, stacId))).status).toBe(200);
  });

  it('refuses to move an Item into a collection where its id is taken (409), and it stays', async () => {
    const stacId = 'clash_scene_1';
    const elsewhere = await createCollection({ title: 'Clash source' });
    await expectCommand(await call('POST', itemsOf(collectionId), { body: item(stacId) }), 201, 'add');
    await expectCommand(await call('POST', itemsOf(elsewhere), { body: item(stacId) }), 201, 'add');
    const mover = await portalItemNamed(elsewhere, stacId);
    const move = await call<{ message: string }>('POST', `/api/v1/portal/items/${mover.id}/move`, {
      body: { parentId: collectionId },
    });
    expect(move.status).toBe(409);
    expect(move.body.message).toMatch(/is already in/);
    expect((await call('GET', pathOf(elsewhere, stacId))).status).toBe(200);
    expect((await portalItemsOf(collectionId)).filter((record) => record.stacId === stacId)).toHaveLength(1);
  });
});

describe('the portal API names items too', () => {
  const create = (body: Record<string, unknown>) =>
    call<{ portalItemId: string; message: string }>('POST', '/api/v1/portal/items/create', {
      body: { title: 'Portal named', links: [], parentId: collectionId, ...body },
    });

  it('takes stacId on a create by href and on an upload, refusing a taken name and a UUID', async () => {
    const registered = await create({ stacId: 'portal_named_1', assets: {} });
    await expectCommand(registered, 201, 'create named by href');
    const read = await call<StacItem>('GET', pathOf(collectionId, 'portal_named_1'));
    expect(read.status).toBe(200);
    expect(read.body.id).toBe('portal_named_1');

    const taken = await create({ stacId: 'portal_named_1', assets: {} });
    expect(taken.status).toBe(409);
    const uploaded = await create({ stacId: 'portal_named_2', size: 10 });
    await expectCommand(uploaded, 201, 'create named upload');
    const record = await call<PortalRecord>('GET', `/api/v1/portal/items/${uploaded.body.portalItemId}`);
    expect(record.body.stacId).toBe('portal_named_2');

    const uuid = await create({ stacId: randomUUID(), assets: {} });
    expect(uuid.status).toBe(400);
    expect(uuid.body.message).toMatch(/stacId: must be a name, not a UUID/);
  });

  it('creates one of two bulk lines naming one item alike, and refuses the other with 409', async () => {
    const line = (title: string) =>
      JSON.stringify({
        type: 'createItem',
        body: { title, links: [], parentId: collectionId, stacId: 'bulk_twice', assets: {} },
      });
    const other = JSON.stringify({
      type: 'createItem',
      body: { title: 'Bulk other', links: [], parentId: collectionId, stacId: 'bulk_other', assets: {} },
    });
    const answer = await postNdjson([line('Bulk first'), other, line('Bulk second')]);
    expect(answer.status).toBe(200);
    const results = answer.lines.filter((result) => 'line' in result);
    expect(results.map((result) => result['status'])).toEqual([201, 201, 409]);
    expect(results[2]?.['message']).toMatch(/earlier command of this request/);
    const summary = answer.lines.find((result) => result['done'] === true);
    if (typeof summary?.['position'] === 'string') await waitForPosition(summary['position']);
    const read = await call<StacItem>('GET', pathOf(collectionId, 'bulk_twice'));
    expect(read.body.properties['title']).toBe('Bulk first');
  });
});
