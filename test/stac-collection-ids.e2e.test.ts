import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { apiKey, signUp, useSignedInCaller } from './support/auth.js';
import { call, expectCommand, waitForPosition } from './support/http.js';
import { postNdjson } from './support/ndjson.js';
import { createPortalObject } from './support/stac-fixture.js';

/**
 * Collections named by their STAC client (docs/stac.md, "Collection ids"): a Collection added with an id
 * that is not a UUID keeps it as its STAC id and path, unique among the portal's live collections
 * whoever holds them; its items, searches, filters, aggregations and transactions name it so, its UUID
 * still answers, and a deleted collection's name can be given again. Through HTTP only.
 */

useSignedInCaller();

const STAC = '/api/v1/stac';

interface StacLink {
  rel: string;
  href: string;
  title?: string;
}

interface StacCollection {
  id: string;
  title: string;
  description: string;
  links: StacLink[];
}

interface StacItem {
  id: string;
  collection?: string;
  properties: Record<string, unknown>;
  links: StacLink[];
}

const collectionPath = (id: string) => `${STAC}/collections/${encodeURIComponent(id)}`;
const itemsPath = (id: string) => `${collectionPath(id)}/items`;

function collection(id: string, fields: Record<string, unknown> = {}) {
  return {
    type: 'Collection',
    stac_version: '1.0.0',
    id,
    description: `The ${id} scenes`,
    license: 'CC-BY-4.0',
    links: [],
    ...fields,
  };
}

function item(id: string, properties: Record<string, unknown> = {}) {
  return {
    type: 'Feature',
    stac_version: '1.0.0',
    id,
    geometry: { type: 'Point', coordinates: [10.5, 47.2] },
    bbox: [10.5, 47.2, 10.5, 47.2],
    properties: { datetime: '2024-05-02T10:00:00Z', 'eo:cloud_cover': 4, ...properties },
    links: [],
    assets: { visual: { href: 'https://example.org/scene/visual.tif', roles: ['visual'] } },
  };
}

/** The UUID behind a named collection, from the link to its portal record. */
function portalIdOf(found: StacCollection): string {
  const record = found.links.find((link) => link.rel === 'alternate' && link.title === 'The portal item');
  const id = record?.href.split('/').at(-1);
  if (id === undefined) throw new Error('the collection links no portal record');
  return id;
}

// Names are unique in the whole portal, and the e2e stack is shared: each run names its own.
const run = randomUUID().slice(0, 8);
const name = `sentinel-2-l2a-${run}`;
let uuid = '';

beforeAll(async () => {
  const added = await call<StacCollection>('POST', `${STAC}/collections`, { body: collection(name) });
  await expectCommand(added, 201, 'add a named collection');
  expect(added.headers.get('location')).toBe(`${inject('baseUrl')}${collectionPath(name)}`);
  expect(added.body.id).toBe(name);
  uuid = portalIdOf(added.body);
  await expectCommand(await call('POST', itemsPath(name), { body: item('scene-a') }), 201, 'add scene-a');
  await expectCommand(
    await call('POST', itemsPath(name), { body: item('scene-b', { 'eo:cloud_cover': 40 }) }),
    201,
    'add scene-b',
  );
}, 60_000);

describe('a Collection added under an id of its client', () => {
  it('answers under its name and under its UUID, with links by its name', async () => {
    const byName = await call<StacCollection>('GET', collectionPath(name));
    expect(byName.status).toBe(200);
    expect(byName.body.id).toBe(name);
    const base = `${inject('baseUrl')}${collectionPath(name)}`;
    const href = (rel: string) => byName.body.links.find((link) => link.rel === rel)?.href;
    expect(href('self')).toBe(base);
    expect(href('items')).toBe(`${base}/items`);
    expect(href('aggregations')).toBe(`${base}/aggregations`);
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const byUuid = await call<StacCollection>('GET', collectionPath(uuid));
    expect(byUuid.body.id).toBe(name);
    const portal = await call<{ id: string; kind: string; stacId?: string }>(
      'GET',
      `/api/v1/portal/items/${uuid}`,
    );
    expect(portal.body).toMatchObject({ id: uuid, kind: 'collection', stacId: name });
    // So does its record as it was, rebuilt from its events.
    const past = await call<{ stacId?: string }>('GET', `/api/v1/portal/items/${uuid}?asOf=0`);
    expect(past.status).toBe(200);
    expect(past.body.stacId).toBe(name);

    // Listed by its name, and linked so from the landing page's children.
    const listed = await call<{ collections: StacCollection[] }>('GET', `${STAC}/collections?limit=1000`);
    expect(listed.body.collections.map((found) => found.id)).toContain(name);
    expect((await call('GET', collectionPath(`${name}-nothing`))).status).toBe(404);
  });

  it('names itself in its items: collection, self, parent and collection links', async () => {
    const read = await call<StacItem>('GET', `${itemsPath(name)}/scene-a`);
    expect(read.status).toBe(200);
    expect(read.body.collection).toBe(name);
    const base = `${inject('baseUrl')}${collectionPath(name)}`;
    const href = (rel: string) => read.body.links.find((link) => link.rel === rel)?.href;
    expect(href('self')).toBe(`${base}/items/scene-a`);
    expect(href('parent')).toBe(base);
    expect(href('collection')).toBe(base);
    // The page of its items (stored JSON) and one item by the collection's UUID say the same.
    const page = await call<{ features: StacItem[]; links: StacLink[] }>('GET', itemsPath(name));
    expect(page.body.features.map((found) => [found.id, found.collection]).sort()).toEqual([
      ['scene-a', name],
      ['scene-b', name],
    ]);
    expect(page.body.links.find((link) => link.rel === 'self')?.href).toBe(`${base}/items`);
    const viaUuid = await call<StacItem>('GET', `${itemsPath(uuid)}/scene-b`);
    expect(viaUuid.body.collection).toBe(name);
  });

  it('is searched, filtered, sorted and aggregated by its name', async () => {
    const ids = (body: { features: StacItem[] }) => body.features.map((found) => found.id).sort();
    const byGet = await call<{ features: StacItem[] }>(
      'GET',
      `${STAC}/search?collections=${encodeURIComponent(name)}`,
    );
    expect(byGet.status).toBe(200);
    expect(ids(byGet.body)).toEqual(['scene-a', 'scene-b']);
    const mixed = await call<{ features: StacItem[] }>('POST', `${STAC}/search`, {
      body: { collections: [uuid, name], ids: ['scene-b'] },
    });
    expect(ids(mixed.body)).toEqual(['scene-b']);
    const filtered = await call<{ features: StacItem[] }>(
      'GET',
      `${STAC}/search?filter=${encodeURIComponent(`collection = '${name}' AND "eo:cloud_cover" < 10`)}`,
    );
    expect(ids(filtered.body)).toEqual(['scene-a']);
    // Sorted by the names, not the UUIDs: a collection whose name sorts first and whose UUID sorts last
    // (names are tried until one's UUID does).
    let first = '';
    for (let attempt = 0; first === '' && attempt < 20; attempt += 1) {
      const candidate = `0-${name}-${attempt}`;
      const added = await call<StacCollection>('POST', `${STAC}/collections`, {
        body: collection(candidate),
      });
      await expectCommand(added, 201, 'add a collection named to sort first');
      if (portalIdOf(added.body) > uuid) first = candidate;
    }
    await expectCommand(await call('POST', itemsPath(first), { body: item('scene-z') }), 201, 'add scene-z');
    for (const direction of ['asc', 'desc'] as const) {
      const sorted = await call<{ features: StacItem[] }>('POST', `${STAC}/search`, {
        body: { collections: [name, first], sortby: [{ field: 'collection', direction }] },
      });
      const order = [first, name, name];
      expect(sorted.body.features.map((found) => found.collection)).toEqual(
        direction === 'asc' ? order : order.reverse(),
      );
    }
    // The collection search filters its `id` by the name too.
    const searched = await call<{ collections: StacCollection[] }>(
      'GET',
      `${STAC}/collections?filter=${encodeURIComponent(`id = '${name}'`)}`,
    );
    expect(searched.body.collections.map((found) => found.id)).toEqual([name]);

    const counted = await call<{
      aggregations: { name: string; buckets?: { key: string; frequency: number }[] }[];
    }>('GET', `${STAC}/aggregate?collections=${encodeURIComponent(name)}&aggregations=collection_frequency`);
    expect(counted.status).toBe(200);
    const frequency = counted.body.aggregations.find((found) => found.name === 'collection_frequency');
    expect(frequency?.buckets).toEqual([expect.objectContaining({ key: name, frequency: 2 })]);
    const own = await call<{ links: StacLink[] }>(
      'GET',
      `${collectionPath(name)}/aggregate?aggregations=total_count`,
    );
    expect(own.status).toBe(200);
    expect(own.body.links.find((link) => link.rel === 'collection')?.href).toBe(
      `${inject('baseUrl')}${collectionPath(name)}`,
    );

    const unknown = await call<{ message: string }>('GET', `${STAC}/search?collections=${name}-nothing`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain(`${name}-nothing`);
  });

  it('refuses a second Collection of its name with 409, from any organization', async () => {
    const again = await call<{ message: string }>('POST', `${STAC}/collections`, { body: collection(name) });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already exists/);
    const stranger = await signUp({ name: 'Another organization' });
    const key = await apiKey(stranger, { role: 'owner' });
    // The collection is its organization's: the stranger cannot read it, and cannot take its name.
    expect((await call('GET', collectionPath(name), { headers: key.headers })).status).toBe(404);
    // Named in a search, it answers as a collection that does not exist.
    const hidden = await call<{ message: string }>('GET', `${STAC}/search?collections=${name}`, {
      headers: key.headers,
    });
    const missing = await call<{ message: string }>('GET', `${STAC}/search?collections=${name}-none`);
    expect([hidden.status, missing.status]).toEqual([400, 400]);
    expect(hidden.body.message.replace(name, 'X')).toBe(missing.body.message.replace(`${name}-none`, 'X'));
    const theirs = await call('POST', `${STAC}/collections`, {
      headers: key.headers,
      body: collection(name),
    });
    expect(theirs.status).toBe(409);
    // The portal API's create with the name says the same.
    const portal = await call('POST', '/api/v1/portal/collections/create', {
      headers: key.headers,
      body: { title: 'Mine', description: 'x', links: [], stacId: name },
    });
    expect(portal.status).toBe(409);
  });

  it('refuses names that can be no path segment, and a UUID as the portal API’s stacId', async () => {
    for (const id of ['a/b', '.', ' padded', 'tab\there']) {
      const refused = await call<{ message: string }>('POST', `${STAC}/collections`, {
        body: collection(id),
      });
      expect(refused.status, id).toBe(400);
      expect(refused.body.message).toMatch(/^invalid body: id: /);
    }
    const uuidName = await call<{ message: string }>('POST', '/api/v1/portal/collections/create', {
      body: { title: 'T', description: 'x', links: [], stacId: randomUUID() },
    });
    expect(uuidName.status).toBe(400);
    expect(uuidName.body.message).toMatch(/stacId: must be a name, not a UUID/);
  });

  it('is replaced and patched by its name; a body naming another collection is refused', async () => {
    const put = await call<StacCollection>('PUT', collectionPath(name), {
      body: collection(name, { title: 'Sentinel-2 L2A', description: 'Replaced' }),
      headers: { prefer: 'return=representation' },
    });
    await expectCommand(put, 200, 'replace named collection');
    expect(put.body).toMatchObject({ id: name, title: 'Sentinel-2 L2A', description: 'Replaced' });
    const patched = await call('PATCH', collectionPath(name), { body: { description: 'Patched' } });
    await expectCommand(patched, 204, 'patch named collection');
    expect((await call('GET', collectionPath(name))).body).toMatchObject({
      id: name,
      description: 'Patched',
    });
    const other = await call<{ message: string }>('PUT', collectionPath(name), {
      body: collection(`${name}-other`),
    });
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/is not the collection of the path/);
    // An Item naming the collection by its name or its UUID goes in; another collection's name does not.
    await expectCommand(
      await call('POST', itemsPath(uuid), { body: { ...item('scene-c'), collection: name } }),
      201,
      'add an item naming the collection',
    );
    const wrong = await call<{ message: string }>('POST', itemsPath(name), {
      body: { ...item('scene-d'), collection: `${name}-other` },
    });
    expect(wrong.status).toBe(400);
  });

  it('is deleted by its name, and its name can then be given to a new Collection', async () => {
    for (const scene of ['scene-a', 'scene-b', 'scene-c']) {
      await expectCommand(await call('DELETE', `${itemsPath(name)}/${scene}`), 204, `delete ${scene}`);
    }
    await expectCommand(await call('DELETE', collectionPath(name)), 204, 'delete named collection');
    expect((await call('GET', collectionPath(name))).status).toBe(404);

    const again = await call<StacCollection>('POST', `${STAC}/collections`, {
      body: collection(name, { title: 'Second' }),
    });
    await expectCommand(again, 201, 'add the name again');
    const second = portalIdOf(again.body);
    expect(second).not.toBe(uuid);
    const read = await call<StacCollection>('GET', collectionPath(name));
    expect(read.body).toMatchObject({ id: name, title: 'Second' });
    // The first one's UUID still names only the deleted one.
    expect((await call('GET', collectionPath(uuid))).status).toBe(404);
  });
});

describe('a collection deleted with the catalog above it', () => {
  it('passes its name on, though the recursive delete gave it no event of its own', async () => {
    const campaign = `campaign-${run}`;
    const parentId = await createPortalObject('catalogs', { title: 'Campaigns', description: 'x' });
    await createPortalObject('collections', { title: 'Campaign', parentId, stacId: campaign });
    expect((await call<StacCollection>('GET', collectionPath(campaign))).body.id).toBe(campaign);
    const removed = await call('DELETE', `/api/v1/portal/items/${parentId}?recursive=true`);
    await expectCommand(removed, 200, 'delete the catalog recursively');
    expect((await call('GET', collectionPath(campaign))).status).toBe(404);
    const again = await call<StacCollection>('POST', `${STAC}/collections`, { body: collection(campaign) });
    await expectCommand(again, 201, 'add the name again');
    expect(again.body.id).toBe(campaign);
  });
});

describe('names in one request, and item names beside collection names', () => {
  it('creates one of two bulk lines naming one collection alike, and refuses the other with 409', async () => {
    const twice = `bulk-twice-${run}`;
    const line = (title: string) =>
      JSON.stringify({
        type: 'createCollection',
        body: { title, description: 'x', links: [], stacId: twice },
      });
    const answer = await postNdjson([line('Bulk first'), line('Bulk second')]);
    expect(answer.status).toBe(200);
    const results = answer.lines.filter((result) => 'line' in result);
    expect(results.map((result) => result['status'])).toEqual([201, 409]);
    expect(results[1]?.['message']).toMatch(/earlier command of this request creates it \(a collection/);
    const summary = answer.lines.find((result) => result['done'] === true);
    if (typeof summary?.['position'] === 'string') await waitForPosition(summary['position']);
    const read = await call<StacCollection>('GET', collectionPath(twice));
    expect(read.body).toMatchObject({ id: twice, title: 'Bulk first' });
  });

  it('moves an item into a catalog whose collection holds the item’s name', async () => {
    const shared = `shared-${run}`;
    const target = await createPortalObject('catalogs', { title: 'Holder', description: 'x' });
    await createPortalObject('collections', { title: 'Shared', parentId: target, stacId: shared });
    const home = await call<StacCollection>('POST', `${STAC}/collections`, {
      body: collection(`home-${run}`),
    });
    await expectCommand(home, 201, 'create the item’s collection');
    const added = await call<StacItem>('POST', itemsPath(`home-${run}`), { body: item(shared) });
    await expectCommand(added, 201, 'add an item of the name');
    const itemUuid = added.body.links
      .find((link) => link.rel === 'alternate')
      ?.href.split('/')
      .at(-1);
    const moved = await call('POST', `/api/v1/portal/items/${itemUuid}/move`, { body: { parentId: target } });
    await expectCommand(moved, 200, 'move the item beside the collection of its name');
  });
});

describe('a UUID a client chooses', () => {
  it('is refused with 409 when an object of another kind holds it', async () => {
    const home = `uuids-${run}`;
    const created = await call<StacCollection>('POST', `${STAC}/collections`, { body: collection(home) });
    await expectCommand(created, 201, 'create a collection');
    const collectionUuid = portalIdOf(created.body);
    // An item under the collection's own UUID.
    const item409 = await call<{ message: string }>('POST', itemsPath(home), { body: item(collectionUuid) });
    expect(item409.status).toBe(409);
    expect(item409.body.message).toMatch(/exists already/);
    // A collection under an item's UUID.
    const itemUuid = randomUUID();
    await expectCommand(await call('POST', itemsPath(home), { body: item(itemUuid) }), 201, 'add an item');
    const collection409 = await call('POST', `${STAC}/collections`, { body: collection(itemUuid) });
    expect(collection409.status).toBe(409);
    expect((await call<StacItem>('GET', `${itemsPath(home)}/${itemUuid}`)).body.id).toBe(itemUuid);
  });
});

describe('a name a path segment must encode', () => {
  it('answers under its encoded path, and its items link it so', async () => {
    const odd = `coll #${run}?%20 ü`;
    const added = await call<StacCollection>('POST', `${STAC}/collections`, { body: collection(odd) });
    await expectCommand(added, 201, 'add an oddly named collection');
    expect(added.headers.get('location')).toBe(`${inject('baseUrl')}${collectionPath(odd)}`);
    expect((await call<StacCollection>('GET', collectionPath(odd))).body.id).toBe(odd);
    await expectCommand(await call('POST', itemsPath(odd), { body: item('x 1') }), 201, 'add x 1');
    const read = await call<StacItem>('GET', `${itemsPath(odd)}/${encodeURIComponent('x 1')}`);
    expect(read.body.collection).toBe(odd);
    expect(read.body.links.find((link) => link.rel === 'self')?.href).toBe(
      `${inject('baseUrl')}${itemsPath(odd)}/x%201`,
    );
  });
});
