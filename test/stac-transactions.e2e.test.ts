import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { addMember, signUp, useSignedInCaller, type SignedInUser } from './support/auth.js';
import { call, createCollection, expectCommand } from './support/http.js';
import { createPortalObject } from './support/stac-fixture.js';

/**
 * The STAC transaction extension for Items (docs/stac.md, Transactions): adding Items and
 * ItemCollections to a collection, replacing, patching and deleting an Item, through HTTP, read back by STAC GET, the portal
 * API and the history; bad bodies answer 400, rights are the portal's.
 */

const pipeline = useSignedInCaller();

const STAC = '/api/v1/stac';
let collectionId = '';
let itemsPath = '';

interface StacItemBody {
  id: string;
  collection?: string;
  properties: Record<string, unknown>;
  assets: Record<string, unknown>;
  geometry: unknown;
  bbox?: number[];
  links: { rel: string; href: string; type?: string; title?: string }[];
}

beforeAll(async () => {
  collectionId = await createCollection({ title: 'STAC transactions' });
  itemsPath = `${STAC}/collections/${collectionId}/items`;
}, 60_000);

// Properties of every JSON type, nested too: they must come back exactly.
const properties = {
  title: 'Transaction scene',
  description: 'Added through STAC',
  datetime: '2024-06-01T10:30:00Z',
  'eo:cloud_cover': 12.5,
  'sat:relative_orbit': 42,
  'view:off_nadir': 0,
  'sar:polarizations': ['VV', 'VH'],
  'processing:level': 'L2A',
  'proj:epsg': null,
  'custom:flag': false,
  'custom:nested': { a: [1, { b: 'c' }], d: null },
  'custom:number_text': '3.14',
};
const assets = {
  visual: {
    href: 'https://example.org/t/visual.tif',
    type: 'image/tiff',
    roles: ['visual'],
    'raster:scale': 1.5,
  },
  thumbnail: { href: 's3://bucket/t/thumb.png', roles: ['thumbnail'] },
};
const geometry = {
  type: 'Polygon',
  coordinates: [
    [
      [10, 20],
      [11, 20],
      [11, 21],
      [10, 21],
      [10, 20],
    ],
  ],
};

function stacItem(fields: Partial<StacItemBody> & Record<string, unknown> = {}) {
  return {
    type: 'Feature',
    stac_version: '1.0.0',
    stac_extensions: [],
    geometry,
    properties,
    links: [{ rel: 'license', href: 'https://example.org/licence', title: 'Licence', type: 'text/html' }],
    assets,
    ...fields,
  };
}

const getStac = (id: string) => call<StacItemBody>('GET', `${itemsPath}/${id}`);

it('declares the transaction classes for Items and Collections', async () => {
  const conformance = await call<{ conformsTo: string[] }>('GET', `${STAC}/conformance`);
  expect(conformance.body.conformsTo).toEqual(
    expect.arrayContaining([
      'https://api.stacspec.org/v1.0.0-rc.2/ogcapi-features/extensions/transaction',
      'https://api.stacspec.org/v1.0.0/ogcapi-features/extensions/transaction',
      'http://www.opengis.net/spec/ogcapi-features-4/1.0/conf/simpletx',
      'https://api.stacspec.org/v1.0.0/collections/extensions/transaction',
    ]),
  );
});

describe('POST /collections/{id}/items', () => {
  it('adds an Item under its UUID, read back with every property and asset as sent', async () => {
    const id = randomUUID();
    const added = await call<StacItemBody>('POST', itemsPath, {
      body: stacItem({ id, collection: collectionId }),
    });
    await expectCommand(added, 201, 'add item');
    expect(added.headers.get('location')).toBe(`${inject('baseUrl')}${itemsPath}/${id}`);
    expect(added.body.id).toBe(id);

    const read = await getStac(id);
    expect(read.status).toBe(200);
    const { created, updated, ...kept } = read.body.properties;
    expect(kept).toEqual({ ...properties, datetime: '2024-06-01T10:30:00.000Z' });
    expect(typeof created).toBe('string');
    expect(typeof updated).toBe('string');
    expect(read.body.assets).toEqual(assets);
    expect(read.body.geometry).toEqual(geometry);
    expect(read.body.bbox).toEqual([10, 20, 11, 21]);
    expect(read.body.collection).toBe(collectionId);
    expect(read.body.links).toContainEqual({
      rel: 'license',
      href: 'https://example.org/licence',
      title: 'Licence',
      type: 'text/html',
    });

    const portal = await call<{ status: string; title: string; parentId: string }>(
      'GET',
      `/api/v1/portal/items/${id}`,
    );
    expect(portal.body).toMatchObject({
      status: 'ready',
      title: 'Transaction scene',
      parentId: collectionId,
    });
    const history = await call<{ items: { type: string }[] }>('GET', `/api/v1/portal/items/${id}/history`);
    expect(history.body.items.map((entry) => entry.type)).toEqual(['ItemRegistered']);
  });

  it('gives an Item without id a UUID of its own; an Item without title is titled by its id', async () => {
    const { properties: _ignored, ...rest } = stacItem();
    const added = await call<StacItemBody>('POST', itemsPath, {
      body: { ...rest, properties: { datetime: '2024-01-01T00:00:00Z' } },
    });
    await expectCommand(added, 201, 'add item without id');
    expect(added.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(added.body.properties['title']).toBe('Untitled item');
  });

  it('answers 409 to an id that exists, and a range time keeps datetime null', async () => {
    const id = randomUUID();
    const range = {
      title: 'Range',
      datetime: null,
      start_datetime: '2024-01-01T00:00:00Z',
      end_datetime: '2024-02-01T00:00:00Z',
    };
    await expectCommand(
      await call('POST', itemsPath, { body: stacItem({ id, properties: range }) }),
      201,
      'add',
    );
    const again = await call<{ message: string }>('POST', itemsPath, { body: stacItem({ id }) });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/exist/);
    expect((await getStac(id)).body.properties).toMatchObject({
      datetime: null,
      start_datetime: '2024-01-01T00:00:00.000Z',
      end_datetime: '2024-02-01T00:00:00.000Z',
    });
  });

  it('adds an ItemCollection, each Item read back', async () => {
    const ids = [randomUUID(), randomUUID()];
    const added = await call<{ ids: string[] }>('POST', itemsPath, {
      body: { type: 'FeatureCollection', features: ids.map((id) => stacItem({ id })) },
    });
    await expectCommand(added, 201, 'add item collection');
    expect(added.headers.get('location')).toBeNull();
    expect(added.body.ids).toEqual(ids);
    for (const id of ids) expect((await getStac(id)).status).toBe(200);
  });

  it.each([
    [
      'an id with a slash',
      stacItem({ id: 'S2A/20240601' }),
      /^invalid body: id: must hold no \/, no control character/,
    ],
    ['an empty id', stacItem({ id: '' }), /^invalid body: id: must not be empty/],
    ['an id of 257 characters', stacItem({ id: 'x'.repeat(257) }), /^invalid body: id: must be at most 256/],
    [
      'another collection',
      stacItem({ collection: randomUUID() }),
      /^collection: .* is not the collection of the path/,
    ],
    ['not a Feature', { ...stacItem(), type: 'Polygon' }, /type: must be "Feature"/],
    ['no properties', { ...stacItem(), properties: undefined }, /properties: is required/],
    ['a bad geometry', stacItem({ geometry: { type: 'Polygon', coordinates: 'x' } }), /geometry/],
    ['a bad datetime', stacItem({ properties: { datetime: 'yesterday' } }), /datetime/],
    [
      'a relative asset href',
      stacItem({ assets: { data: { href: 'data.tif' } } }),
      /href must be an absolute/,
    ],
    [
      'a bad Item in an ItemCollection',
      { type: 'FeatureCollection', features: [stacItem(), stacItem({ id: 'tab\there' })] },
      /features\[1\]\.id: must hold no \/, no control character/,
    ],
  ])('refuses %s with 400 and creates nothing', async (_what, body, message) => {
    const response = await call<{ message: string }>('POST', itemsPath, { body });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });
});

describe('PUT /collections/{id}/items/{itemId}', () => {
  it('replaces the Item: properties, time, geometry and assets as given; history records the change', async () => {
    const id = randomUUID();
    await expectCommand(await call('POST', itemsPath, { body: stacItem({ id }) }), 201, 'add');
    const replacedProperties = {
      title: 'Replaced scene',
      datetime: null,
      start_datetime: '2023-03-01T00:00:00Z',
      end_datetime: '2023-03-02T00:00:00Z',
      'eo:cloud_cover': 99,
      'custom:list': [true, null, 1.25, 'x'],
    };
    const replacedAssets = { data: { href: 'https://example.org/t/data.nc', roles: ['data'] } };
    const put = await call('PUT', `${itemsPath}/${id}`, {
      body: stacItem({
        id,
        properties: replacedProperties,
        assets: replacedAssets,
        geometry: null,
        bbox: [1, 2, 3, 4],
      }),
    });
    await expectCommand(put, 204, 'replace');
    expect(put.headers.get('content-type')).toBeNull();
    expect(put.headers.get('etag')).toBe('"1"');

    const read = await getStac(id);
    const { created: _c, updated: _u, ...kept } = read.body.properties;
    expect(kept).toEqual({
      ...replacedProperties,
      start_datetime: '2023-03-01T00:00:00.000Z',
      end_datetime: '2023-03-02T00:00:00.000Z',
    });
    expect(read.body.assets).toEqual(replacedAssets);
    expect(read.body.bbox).toEqual([1, 2, 3, 4]);
    const history = await call<{ items: { type: string; change: Record<string, unknown> }[] }>(
      'GET',
      `/api/v1/portal/items/${id}/history`,
    );
    expect(history.body.items.map((entry) => entry.type)).toEqual(['ItemRegistered', 'PortalObjectUpdated']);
    expect(Object.keys(history.body.items[1]?.change ?? {}).sort()).toEqual(
      ['assets', 'metadata', 'title', 'description'].sort(),
    );
  });

  it('takes If-Match with the ETag the Item was read with: a stale one answers 412', async () => {
    const id = randomUUID();
    await expectCommand(await call('POST', itemsPath, { body: stacItem({ id }) }), 201, 'add');
    const etag = (await getStac(id)).headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const body = stacItem({ id, properties: { ...properties, title: 'Locked' } });
    await expectCommand(
      await call('PUT', `${itemsPath}/${id}`, { body, headers: { 'if-match': etag } }),
      204,
      'put',
    );
    const stale = await call('PUT', `${itemsPath}/${id}`, {
      body: stacItem({ id, properties: { ...properties, title: 'Lost update' } }),
      headers: { 'if-match': etag },
    });
    expect(stale.status).toBe(412);
    expect((await getStac(id)).body.properties['title']).toBe('Locked');
  });

  it('answers 404 for a missing Item and 400 for another id or a bad body', async () => {
    expect((await call('PUT', `${itemsPath}/${randomUUID()}`, { body: stacItem() })).status).toBe(404);
    const id = randomUUID();
    await expectCommand(await call('POST', itemsPath, { body: stacItem({ id }) }), 201, 'add');
    const other = await call<{ message: string }>('PUT', `${itemsPath}/${id}`, {
      body: stacItem({ id: randomUUID() }),
    });
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/is not the item of the path/);
    const bad = await call<{ message: string }>('PUT', `${itemsPath}/${id}`, {
      body: stacItem({ id, properties: { datetime: 'soon' } }),
    });
    expect(bad.status).toBe(400);
  });
});

describe('PATCH /collections/{id}/items/{itemId}', () => {
  it('merges a JSON merge patch: named properties and assets change, null removes, the rest stays', async () => {
    const id = randomUUID();
    await expectCommand(await call('POST', itemsPath, { body: stacItem({ id }) }), 201, 'add');
    const extra = { href: 'https://example.org/t/extra.json', type: 'application/json' };
    const patched = await call('PATCH', `${itemsPath}/${id}`, {
      body: {
        properties: { 'eo:cloud_cover': 50, 'custom:flag': null, 'custom:nested': { d: 'now', e: [1] } },
        assets: { thumbnail: null, extra },
      },
    });
    await expectCommand(patched, 204, 'patch');
    expect(patched.body).toBeNull();
    const read = await getStac(id);
    const { created: _c, updated: _u, ...kept } = read.body.properties;
    const { 'custom:flag': _flag, ...unchanged } = properties;
    expect(kept).toEqual({
      ...unchanged,
      datetime: '2024-06-01T10:30:00.000Z',
      'eo:cloud_cover': 50,
      'custom:nested': { a: [1, { b: 'c' }], d: 'now', e: [1] },
    });
    expect(read.body.assets).toEqual({ visual: assets.visual, extra });
    expect(read.body.geometry).toEqual(geometry);
    expect(read.body.links).toContainEqual(expect.objectContaining({ rel: 'license' }));
  });

  it('answers 404 for a missing Item and 400 for a body that is not an object or changes the id', async () => {
    expect((await call('PATCH', `${itemsPath}/${randomUUID()}`, { body: {} })).status).toBe(404);
    const id = randomUUID();
    await expectCommand(await call('POST', itemsPath, { body: stacItem({ id }) }), 201, 'add');
    expect((await call('PATCH', `${itemsPath}/${id}`, { body: [1] })).status).toBe(400);
    expect((await call('PATCH', `${itemsPath}/${id}`, { body: { id: randomUUID() } })).status).toBe(400);
    expect(
      (await call('PATCH', `${itemsPath}/${id}`, { body: { properties: { datetime: 1 } } })).status,
    ).toBe(400);
  });
});

describe('Prefer: return=representation', () => {
  it('answers PUT and PATCH with the Item as changed (200) instead of 204', async () => {
    const id = randomUUID();
    await expectCommand(await call('POST', itemsPath, { body: stacItem({ id }) }), 201, 'add');
    const prefer = { prefer: 'return=representation' };
    const put = await call<StacItemBody>('PUT', `${itemsPath}/${id}`, {
      body: stacItem({ id, properties: { ...properties, title: 'Represented' } }),
      headers: prefer,
    });
    await expectCommand(put, 200, 'replace');
    expect(put.headers.get('content-type')).toMatch(/^application\/geo\+json/);
    expect(put.body).toMatchObject({ id, properties: { title: 'Represented' } });
    const patched = await call<StacItemBody>('PATCH', `${itemsPath}/${id}`, {
      body: { properties: { 'eo:cloud_cover': 7 } },
      headers: { prefer: 'wait=5, return=representation' },
    });
    await expectCommand(patched, 200, 'patch');
    expect(patched.body.properties).toMatchObject({ title: 'Represented', 'eo:cloud_cover': 7 });
    const minimal = await call('PATCH', `${itemsPath}/${id}`, {
      body: { properties: { 'eo:cloud_cover': 8 } },
      headers: { prefer: 'return=minimal' },
    });
    await expectCommand(minimal, 204, 'patch, minimal');
  });

  it('with respond-async too, answers 202 with the ids at once', async () => {
    const id = randomUUID();
    await expectCommand(await call('POST', itemsPath, { body: stacItem({ id }) }), 201, 'add');
    const put = await call<{ id: string; collection: string }>('PUT', `${itemsPath}/${id}`, {
      body: stacItem({ id, properties: { ...properties, title: 'Changed at once' } }),
      headers: { prefer: 'respond-async' },
    });
    await expectCommand(put, 202, 'replace, async');
    expect(put.body).toEqual({ id, collection: collectionId });
    expect(put.headers.get('preference-applied')).toBe('respond-async');
  });
});

describe('DELETE /collections/{id}/items/{itemId}', () => {
  it('deletes the Item (204; history records it), then answers 204 again, writing nothing', async () => {
    const id = randomUUID();
    await expectCommand(await call('POST', itemsPath, { body: stacItem({ id }) }), 201, 'add');
    const deleted = await call('DELETE', `${itemsPath}/${id}`);
    await expectCommand(deleted, 204, 'delete');
    expect(deleted.headers.get('content-type')).toBeNull();
    expect((await getStac(id)).status).toBe(404);
    const history = () => call<{ items: { type: string }[] }>('GET', `/api/v1/portal/items/${id}/history`);
    expect((await history()).body.items.map((entry) => entry.type)).toEqual([
      'ItemRegistered',
      'PortalObjectDeleted',
    ]);
    const again = await call('DELETE', `${itemsPath}/${id}`);
    expect(again.status).toBe(204);
    expect(again.headers.get('x-event-position')).toBeNull();
    expect((await history()).body.items).toHaveLength(2);
    expect((await call('DELETE', `${itemsPath}/${randomUUID()}`)).status).toBe(204);
    expect((await call('DELETE', `${itemsPath}/not-a-uuid`)).status).toBe(204);
  });

  it('answers 412 to If-Match on an Item that does not exist, and 404 in a missing collection', async () => {
    const stale = await call<{ message: string }>('DELETE', `${itemsPath}/${randomUUID()}`, {
      headers: { 'if-match': '"0"' },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.message).toMatch(/does not exist/);
    expect((await call('DELETE', `${STAC}/collections/${randomUUID()}/items/x`)).status).toBe(404);
  });

  it('answers a delete repeated before the first is projected as it answered the first', async () => {
    const id = randomUUID();
    await expectCommand(await call('POST', itemsPath, { body: stacItem({ id }) }), 201, 'add');
    const first = await call('DELETE', `${itemsPath}/${id}`, { headers: { prefer: 'respond-async' } });
    expect(first.status).toBe(202);
    expect((await call('DELETE', `${itemsPath}/${id}`)).status).toBe(204);
    await expectCommand(first, 204, 'the first delete');
    const history = await call<{ items: { type: string }[] }>('GET', `/api/v1/portal/items/${id}/history`);
    expect(history.body.items.map((entry) => entry.type)).toEqual(['ItemRegistered', 'PortalObjectDeleted']);
  });

  it('deletes an Item whose create is not projected yet: the event store has it', async () => {
    const id = randomUUID();
    const added = await call('POST', itemsPath, {
      body: stacItem({ id }),
      headers: { prefer: 'respond-async' },
    });
    expect(added.status).toBe(202);
    await expectCommand(await call('DELETE', `${itemsPath}/${id}`), 204, 'delete at once');
    const history = await call<{ items: { type: string }[] }>('GET', `/api/v1/portal/items/${id}/history`);
    expect(history.body.items.map((entry) => entry.type)).toEqual(['ItemRegistered', 'PortalObjectDeleted']);
  });
});

describe('collection transactions', () => {
  const extent = {
    spatial: { bbox: [[-10, 35, 30, 60]] },
    temporal: { interval: [['2015-06-23T00:00:00Z', null]] },
  };
  const collectionBody = (fields: Record<string, unknown> = {}) => ({
    type: 'Collection',
    stac_version: '1.0.0',
    title: 'Posted collection',
    description: 'Created through STAC',
    license: 'CC-BY-4.0',
    keywords: ['stac', 'transactions'],
    extent,
    links: [],
    ...fields,
  });
  interface CollectionBody {
    id: string;
    title: string;
    description: string;
    license: string;
    keywords: string[];
    extent: unknown;
  }

  it('creates a Collection under its UUID, replaces it, patches it and deletes it when empty', async () => {
    const id = randomUUID();
    const created = await call<CollectionBody>('POST', `${STAC}/collections`, {
      body: collectionBody({ id }),
    });
    await expectCommand(created, 201, 'add collection');
    expect(created.headers.get('location')).toBe(`${inject('baseUrl')}${STAC}/collections/${id}`);
    const read = await call<CollectionBody>('GET', `${STAC}/collections/${id}`);
    expect(read.body).toMatchObject({
      id,
      title: 'Posted collection',
      license: 'CC-BY-4.0',
      keywords: ['stac', 'transactions'],
      extent: { spatial: { bbox: [[-10, 35, 30, 60]] } },
    });
    expect((await call('POST', `${STAC}/collections`, { body: collectionBody({ id }) })).status).toBe(409);

    const replaced = await call('PUT', `${STAC}/collections/${id}`, {
      body: collectionBody({ title: 'Replaced', keywords: [], license: 'MIT' }),
    });
    await expectCommand(replaced, 204, 'replace collection');
    expect((await call('GET', `${STAC}/collections/${id}`)).body).toMatchObject({
      title: 'Replaced',
      keywords: [],
      license: 'MIT',
    });

    const patched = await call<CollectionBody>('PATCH', `${STAC}/collections/${id}`, {
      body: { description: 'Patched', keywords: ['one'] },
      headers: { prefer: 'return=representation' },
    });
    await expectCommand(patched, 200, 'patch collection');
    expect(patched.body).toMatchObject({
      title: 'Replaced',
      description: 'Patched',
      keywords: ['one'],
      license: 'MIT',
    });

    const history = await call<{ items: { type: string }[] }>('GET', `/api/v1/portal/items/${id}/history`);
    expect(history.body.items.map((entry) => entry.type)).toEqual([
      'CollectionCreated',
      'PortalObjectUpdated',
      'PortalObjectUpdated',
    ]);

    const itemsOfIt = `${STAC}/collections/${id}/items`;
    const itemId = randomUUID();
    await expectCommand(await call('POST', itemsOfIt, { body: stacItem({ id: itemId }) }), 201, 'add item');
    const notEmpty = await call<{ message: string }>('DELETE', `${STAC}/collections/${id}`);
    expect(notEmpty.status).toBe(409);
    await expectCommand(await call('DELETE', `${itemsOfIt}/${itemId}`), 204, 'delete item');
    await expectCommand(await call('DELETE', `${STAC}/collections/${id}`), 204, 'delete collection');
    expect((await call('GET', `${STAC}/collections/${id}`)).status).toBe(404);
    expect((await call('DELETE', `${STAC}/collections/${id}`)).status).toBe(404);
  });

  it.each([
    [
      'an id no path segment holds',
      collectionBody({ id: 'sentinel/2' }),
      /^invalid body: id: must hold no \//,
    ],
    ['not a Collection', collectionBody({ type: 'Catalog' }), /type: must be "Collection"/],
    ['no description', collectionBody({ description: undefined }), /description: is required/],
    ['a bad extent', collectionBody({ extent: { spatial: { bbox: [[1, 2]] } } }), /extent/],
  ])('refuses %s with 400', async (_what, body, message) => {
    const response = await call<{ message: string }>('POST', `${STAC}/collections`, { body });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });

  it('answers 404 to PUT, PATCH and DELETE of a missing Collection, and 400 to another id', async () => {
    const missing = `${STAC}/collections/${randomUUID()}`;
    expect((await call('PUT', missing, { body: collectionBody() })).status).toBe(404);
    expect((await call('PATCH', missing, { body: {} })).status).toBe(404);
    expect((await call('DELETE', missing)).status).toBe(404);
    const other = await call<{ message: string }>('PUT', `${STAC}/collections/${collectionId}`, {
      body: collectionBody({ id: randomUUID() }),
    });
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/is not the collection of the path/);
  });
});

describe('rights: those of the portal API', () => {
  let viewer: SignedInUser;
  let outsider: SignedInUser;
  let itemId = '';

  beforeAll(async () => {
    viewer = await addMember(pipeline.user(), await signUp({ name: 'STAC tx viewer' }), 'viewer');
    outsider = await signUp({ name: 'STAC tx outsider' });
    itemId = randomUUID();
    await expectCommand(await call('POST', itemsPath, { body: stacItem({ id: itemId }) }), 201, 'add');
  }, 60_000);

  it.each([
    ['POST', () => itemsPath, () => stacItem()],
    ['PUT', () => `${itemsPath}/${itemId}`, () => stacItem({ id: itemId })],
    ['PATCH', () => `${itemsPath}/${itemId}`, () => ({ properties: { 'eo:cloud_cover': 1 } })],
    ['DELETE', () => `${itemsPath}/${itemId}`, () => undefined],
    [
      'PUT collection',
      () => `${STAC}/collections/${collectionId}`,
      () => ({ type: 'Collection', description: 'x' }),
    ],
    ['PATCH collection', () => `${STAC}/collections/${collectionId}`, () => ({ description: 'x' })],
    ['DELETE collection', () => `${STAC}/collections/${collectionId}`, () => undefined],
  ])(
    '%s: anonymous 401, a viewer 403, a caller who cannot see the collection 404',
    async (method, path, body) => {
      const request = (headers?: Record<string, string>) =>
        call(method.split(' ')[0] ?? method, path(), {
          ...(body() === undefined ? {} : { body: body() }),
          ...(headers === undefined ? { as: 'anonymous' as const } : { headers }),
        });
      expect((await request()).status).toBe(401);
      expect((await request(viewer.headers)).status).toBe(403);
      expect((await request(outsider.headers)).status).toBe(404);
      expect((await getStac(itemId)).status).toBe(200);
    },
  );

  it('DELETE of an Item the caller cannot see answers as for a missing one: 204, the Item stays', async () => {
    const editor = await addMember(pipeline.user(), await signUp({ name: 'STAC tx editor' }), 'editor');
    const hidden = await createPortalObject('items', {
      title: 'Kept private',
      parentId: collectionId,
      visibility: 'private',
      stacId: 'kept-private',
      bbox: [5, 5, 6, 6],
      datetime: '2024-05-01T00:00:00Z',
    });
    const status = async (pathId: string, headers: Record<string, string>) =>
      (await call('DELETE', `${itemsPath}/${pathId}`, { headers })).status;
    // By its UUID and by its name, with and without If-Match (malformed, or an ETag), as for no item.
    for (const pathId of [hidden, 'kept-private']) {
      for (const [ifMatch, expected] of [
        [undefined, 204],
        ['x', 400],
        ['"1"', 412],
      ] as const) {
        const headers = { ...editor.headers, ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) };
        expect(await status(pathId, headers), `${pathId} ${ifMatch}`).toBe(expected);
        expect(await status(randomUUID(), headers), `missing ${ifMatch}`).toBe(expected);
        expect(await status('never-given', headers), `missing name ${ifMatch}`).toBe(expected);
      }
      expect(await status(pathId, viewer.headers)).toBe(403);
    }
    expect(await status(randomUUID(), viewer.headers)).toBe(403);
    const asEditor = await call('DELETE', `${itemsPath}/${hidden}`, { headers: editor.headers });
    expect(asEditor.headers.get('x-event-position')).toBeNull();
    expect((await getStac(hidden)).status).toBe(200);
  });

  it('POST /collections: anonymous 401, a viewer of the organization 403', async () => {
    const body = { type: 'Collection', description: 'Refused' };
    expect((await call('POST', `${STAC}/collections`, { body, as: 'anonymous' })).status).toBe(401);
    expect((await call('POST', `${STAC}/collections`, { body, headers: viewer.headers })).status).toBe(403);
  });
});
