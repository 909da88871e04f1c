import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '@portal/contracts';
import { useSignedInCaller } from './support/auth.js';
import { call, createCollection, expectCommand } from './support/http.js';

/**
 * An item's STAC metadata (geometry, bbox, time, tags, properties) changed by the portal's own PATCH
 * (docs/decisions.md, Item metadata by the portal PATCH): the STAC read afterwards shows exactly what was
 * written, every JSON type as sent; the history and the audit feed see the change as the same update
 * a STAC PATCH makes; bad values answer 400 naming the field.
 */

useSignedInCaller();

const STAC = '/api/v1/stac';
let collectionId = '';
let catalogId = '';

interface StacItemBody {
  properties: Record<string, unknown>;
  geometry: unknown;
  bbox?: number[];
}

const square = (west: number, south: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [west, south],
      [west + 1, south],
      [west + 1, south + 1],
      [west, south + 1],
      [west, south],
    ],
  ],
});

// Free-form properties of every JSON type, nested too.
const properties = {
  'eo:cloud_cover': 12.5,
  'sat:relative_orbit': 42,
  'custom:flag': false,
  'custom:nested': { a: [1, { b: 'c' }], d: 'keep' },
  'custom:number_text': '3.14',
  'custom:gone': 'soon',
};

beforeAll(async () => {
  collectionId = await createCollection({ title: 'Portal metadata PATCH' });
  const catalog = await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
    body: { title: 'Metadata catalog', description: 'd', links: [] },
  });
  await expectCommand(catalog, 201, 'create catalog');
  catalogId = catalog.body.portalItemId;
}, 60_000);

async function registeredItem(): Promise<string> {
  const created = await call<{ portalItemId: string }>('POST', '/api/v1/portal/items/create', {
    body: {
      title: 'Scene',
      parentId: collectionId,
      links: [],
      geometry: square(10, 20),
      bbox: [10, 20, 11, 21],
      datetime: '2024-06-01T10:30:00Z',
      tags: ['first'],
      properties,
      assets: { visual: { href: 'https://example.org/visual.tif', type: 'image/tiff' } },
    },
  });
  await expectCommand(created, 201, 'register item');
  return created.body.portalItemId;
}

const patch = (id: string, body: unknown) =>
  call<{ message: string; portalItemId: string }>('PATCH', `/api/v1/portal/items/${id}`, { body });
const stacRead = (id: string) => call<StacItemBody>('GET', `${STAC}/collections/${collectionId}/items/${id}`);

/** The STAC properties without the portal's own timestamps. */
function writtenProperties(item: StacItemBody): Record<string, unknown> {
  const { created: _created, updated: _updated, ...rest } = item.properties;
  return rest;
}

describe('PATCH /api/v1/portal/items/{id} with item metadata', () => {
  it('changes geometry, time, tags and merges properties; the STAC read shows them with their JSON types', async () => {
    const id = await registeredItem();
    const propertiesPatch = {
      'eo:cloud_cover': 3,
      'custom:flag': true,
      'custom:nested': { d: null, e: [null, 0.5, 'x', false] },
      'custom:gone': null,
      'custom:new': { deep: { deeper: [1, 2, 3] } },
      'custom:zero': 0,
      'custom:empty': '',
    };
    const patched = await patch(id, {
      geometry: square(-5, 40),
      start_datetime: '2023-03-01T00:00:00+02:00',
      end_datetime: '2023-03-02T00:00:00Z',
      tags: ['second', 'third'],
      properties: propertiesPatch,
    });
    await expectCommand(patched, 200, 'patch metadata');

    const read = await stacRead(id);
    expect(read.status).toBe(200);
    expect(writtenProperties(read.body)).toEqual({
      'eo:cloud_cover': 3,
      'sat:relative_orbit': 42,
      'custom:flag': true,
      'custom:nested': { a: [1, { b: 'c' }], e: [null, 0.5, 'x', false] },
      'custom:number_text': '3.14',
      'custom:new': { deep: { deeper: [1, 2, 3] } },
      'custom:zero': 0,
      'custom:empty': '',
      title: 'Scene',
      datetime: null,
      start_datetime: '2023-02-28T22:00:00.000Z',
      end_datetime: '2023-03-02T00:00:00.000Z',
    });
    expect(read.body.geometry).toEqual(square(-5, 40));
    // The bbox given with the old geometry went with it: the new one's is derived.
    expect(read.body.bbox).toEqual([-5, 40, -4, 41]);

    const record = await call<{ tags: string[]; properties: Record<string, unknown> }>(
      'GET',
      `/api/v1/portal/items/${id}`,
    );
    expect(record.body.tags).toEqual(['second', 'third']);
    expect(record.body.properties['custom:number_text']).toBe('3.14');
  });

  it('is recorded as the same update a STAC PATCH makes: history and audit see the metadata before and after', async () => {
    const id = await registeredItem();
    await expectCommand(
      await patch(id, { properties: { 'eo:cloud_cover': 80 }, datetime: null }),
      200,
      'patch',
    );
    const history = await call<{
      items: { type: string; change: Record<string, { before: unknown; after: unknown }> }[];
    }>('GET', `/api/v1/portal/items/${id}/history`);
    expect(history.body.items.map((entry) => entry.type)).toEqual(['ItemRegistered', 'PortalObjectUpdated']);
    const change = history.body.items[1]?.change ?? {};
    expect(Object.keys(change)).toEqual(['metadata']);
    expect(change['metadata']?.before).toMatchObject({
      datetime: '2024-06-01T10:30:00.000Z',
      properties: { 'eo:cloud_cover': 12.5 },
    });
    expect(change['metadata']?.after).toMatchObject({
      datetime: null,
      properties: { 'eo:cloud_cover': 80, 'custom:flag': false },
    });

    const audit = await call<AuditPage>('GET', `/api/v1/audit/events?objectId=${id}`);
    expect(audit.status).toBe(200);
    const update = audit.body.items.find((event) => event.type === 'PortalObjectUpdated');
    expect(update?.data).toMatchObject({
      changes: { metadata: { datetime: null, properties: { 'eo:cloud_cover': 80 } } },
      previous: { metadata: { datetime: '2024-06-01T10:30:00.000Z' } },
    });
    // STAC dates an item without a time by its creation.
    expect((await stacRead(id)).body.properties['datetime']).toEqual(expect.any(String));
  });

  it('leaves the item as it is when the patch changes nothing: no event', async () => {
    const id = await registeredItem();
    await expectCommand(
      await patch(id, { properties: { 'custom:never': null }, tags: ['first'] }),
      200,
      'no-op patch',
    );
    const history = await call<{ items: { type: string }[] }>('GET', `/api/v1/portal/items/${id}/history`);
    expect(history.body.items.map((entry) => entry.type)).toEqual(['ItemRegistered']);
  });

  it('clears geometry and properties with null, and keeps a bbox given alone', async () => {
    const id = await registeredItem();
    await expectCommand(await patch(id, { geometry: null, bbox: [1, 2, 3, 4], properties: null }), 200);
    const read = await stacRead(id);
    expect(read.body.bbox).toEqual([1, 2, 3, 4]);
    // An item with a bbox alone is located by the bbox's rectangle.
    expect(read.body.geometry).toMatchObject({ type: 'Polygon' });
    expect(writtenProperties(read.body)).toEqual({ title: 'Scene', datetime: '2024-06-01T10:30:00.000Z' });
  });

  it.each([
    ['a datetime that is not RFC 3339', { datetime: 'yesterday' }, /^invalid update: datetime: must be/],
    [
      'a start without an end',
      { start_datetime: '2024-01-01T00:00:00Z' },
      /end_datetime: is required when start_datetime is given/,
    ],
    [
      'an instant with a range',
      {
        datetime: '2024-01-01T00:00:00Z',
        start_datetime: '2024-01-01T00:00:00Z',
        end_datetime: '2024-01-02T00:00:00Z',
      },
      /datetime: must not be given with start_datetime or end_datetime/,
    ],
    [
      'an end before the start',
      { start_datetime: '2024-01-02T00:00:00Z', end_datetime: '2024-01-01T00:00:00Z' },
      /end_datetime: must not be before start_datetime/,
    ],
    ['properties that are not an object', { properties: [1, 2] }, /properties: /],
    ['a geometry that is not GeoJSON', { geometry: { type: 'Point', coordinates: [500, 0] } }, /geometry/],
    ['a bbox with south above north', { bbox: [0, 10, 1, 5] }, /bbox: south \(10\) must not be greater/],
    ['repeated tags', { tags: ['a', 'a'] }, /tags\[1\]: must not repeat tags\[0\]/],
  ])('refuses %s with 400 naming the field, and changes nothing', async (_what, body, message) => {
    const id = await registeredItem();
    const refused = await patch(id, body);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(message);
    const history = await call<{ items: unknown[] }>('GET', `/api/v1/portal/items/${id}/history`);
    expect(history.body.items).toHaveLength(1);
  });

  it('refuses merged properties past 64 KiB with 400', async () => {
    const id = await registeredItem();
    const half = 'x'.repeat(40 * 1024);
    await expectCommand(await patch(id, { properties: { 'custom:a': half } }), 200, 'first half');
    const refused = await patch(id, { properties: { 'custom:b': half } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^invalid properties once merged: must be at most 64 KiB/);
  });

  it('refuses item metadata on a collection or a catalog with 400', async () => {
    for (const id of [collectionId, catalogId]) {
      const refused = await patch(id, { properties: { a: 1 }, geometry: null });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(
        /geometry, properties do not apply to a (collection|catalog) \(only to items\)/,
      );
    }
  });
});
