import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { seedExtensionFixture, type ExtensionFixture } from './support/stac-extension-fixture.js';
import { pageToEnd } from './support/stac-fixture.js';
import { expectShape, specError } from './support/stac-schemas.js';

/**
 * `/sortables` lists what `sortby` accepts: every listed name sorts (ascending is exactly descending
 * reversed, the id breaking ties in the first field's direction), item properties sort as
 * `additionalProperties` says, and what is not sortable answers 400. The orders themselves are checked
 * against a brute force by test/stac-sort.e2e.test.ts.
 */

useSignedInCaller();

const SORTABLES_REL = 'http://www.opengis.net/def/rel/ogc/1.0/sortables';

interface Sortables {
  $id: string;
  type: string;
  properties: Record<string, { type?: string }>;
  additionalProperties: boolean;
}

let fixture: ExtensionFixture;

beforeAll(async () => {
  fixture = await seedExtensionFixture(2026_12, 24);
}, 180_000);

async function sortedIds(sortby: string): Promise<string[]> {
  const query = new URLSearchParams({ ids: fixture.ids.join(','), sortby, limit: '7' }).toString();
  const { ids } = await pageToEnd({ method: 'GET', path: `/api/v1/stac/search?${query}` });
  return ids;
}

describe('sortables', () => {
  it('lists the fixed sort fields, and the landing page, each collection and the conformance point to it', async () => {
    const root = await call<Sortables>('GET', '/api/v1/stac/sortables');
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    expect(Object.keys(root.body.properties)).toEqual([
      'id',
      'collection',
      'datetime',
      'start_datetime',
      'end_datetime',
      'created',
      'updated',
      'title',
      'description',
    ]);
    expect(root.body.additionalProperties).toBe(true);
    const own = await call<Sortables>('GET', `/api/v1/stac/collections/${fixture.collectionA}/sortables`);
    expect(own.status).toBe(200);
    expect(own.body.properties).toEqual(root.body.properties);
    expect(own.body.$id).toMatch(new RegExp(`/collections/${fixture.collectionA}/sortables$`));

    const landing = await call<{ links: { rel: string; href: string }[] }>('GET', '/api/v1/stac');
    expect(landing.body.links.find((link) => link.rel === SORTABLES_REL)?.href).toBe(root.body.$id);
    const collection = await call<{ links: { rel: string; href: string }[] }>(
      'GET',
      `/api/v1/stac/collections/${fixture.collectionA}`,
    );
    expect(collection.body.links.find((link) => link.rel === SORTABLES_REL)?.href).toBe(own.body.$id);
    const conformance = await call<{ conformsTo: string[] }>('GET', '/api/v1/stac/conformance');
    expect(conformance.body.conformsTo).toEqual(
      expect.arrayContaining([
        'https://api.stacspec.org/v1.0.0/item-search#sortables',
        'http://www.opengis.net/spec/ogcapi-features-5/1.0/conf/sortables',
      ]),
    );
  });

  it('every listed field and a free property sorts both ways, one the exact reverse of the other', async () => {
    const listed = await call<Sortables>('GET', '/api/v1/stac/sortables');
    for (const name of [...Object.keys(listed.body.properties), 'cloud', 'properties.label', 'mixed']) {
      const ascending = await sortedIds(`+${name}`);
      const descending = await sortedIds(`-${name}`);
      expect([...ascending].sort(), name).toEqual([...fixture.ids].sort());
      expect(descending, name).toEqual([...ascending].reverse());
    }
  });

  it('a collection sorts its items by the same names', async () => {
    const listed = await call<Sortables>('GET', `/api/v1/stac/collections/${fixture.collectionB}/sortables`);
    const own = fixture.items
      .filter((item) => item.collection === fixture.collectionB)
      .map((item) => item.id);
    for (const name of Object.keys(listed.body.properties)) {
      const { ids } = await pageToEnd({
        method: 'GET',
        path: `/api/v1/stac/collections/${fixture.collectionB}/items?sortby=-${name}&limit=5`,
      });
      expect([...ids].sort(), name).toEqual([...own].sort());
    }
  });

  it.each(['geometry', 'bbox', 'assets', 'links', 'type'])('%s is not sortable: 400', async (name) => {
    const response = await call('GET', `/api/v1/stac/search?sortby=${name}`);
    expect(response.status).toBe(400);
    expectShape(specError, response.body);
  });

  it('answers 404 for the sortables of a collection that does not exist', async () => {
    const response = await call(
      'GET',
      '/api/v1/stac/collections/00000000-0000-4000-8000-000000000000/sortables',
    );
    expect(response.status).toBe(404);
  });
});
