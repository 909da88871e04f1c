import { beforeAll, describe, expect, it, inject } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call, callAt } from './support/http.js';
import { createPortalObject } from './support/stac-fixture.js';
import {
  expectShape,
  linkOf,
  specCatalog,
  specChildren,
  specCollection,
  specCollections,
  specConformance,
  specError,
  specItemCollection,
  specLandingPage,
} from './support/stac-schemas.js';

/**
 * The STAC API's resources and links (landing page, conformance, collections, children, catalogs) and
 * its answers to bad input: 400 (404 for what does not exist) with `code`, `description` and `message`.
 */

useSignedInCaller();

const STAC = '/api/v1/stac';
let catalog = '';
let subCatalog = '';
let collection = '';
let item = '';
let catalogItem = '';

interface Linked {
  links: { rel: string; href: string; type?: string; method?: string }[];
}

beforeAll(async () => {
  catalog = await createPortalObject('catalogs', { title: 'STAC api catalog', visibility: 'public' });
  subCatalog = await createPortalObject('catalogs', { title: 'STAC api sub-catalog', parentId: catalog });
  collection = await createPortalObject('collections', {
    title: 'STAC api collection',
    parentId: catalog,
    license: 'CC-BY-4.0',
    keywords: ['test'],
  });
  item = await createPortalObject('items', {
    title: 'In the collection',
    parentId: collection,
    bbox: [10, 20, 11, 21],
    datetime: '2024-03-01T10:00:00Z',
  });
  catalogItem = await createPortalObject('items', { title: 'In the catalog', parentId: catalog });
}, 60_000);

const absolute = (path: string) => `${inject('baseUrl')}${path}`;

describe('landing page and conformance', () => {
  it('is a Catalog with conformsTo and every link STAC asks for, all absolute', async () => {
    const landing = await call<Linked & { conformsTo: string[] }>('GET', STAC);
    expect(landing.status).toBe(200);
    expectShape(specLandingPage, landing.body);
    expect(linkOf(landing.body, 'self')?.href).toBe(absolute(STAC));
    expect(linkOf(landing.body, 'root')?.href).toBe(absolute(STAC));
    expect(linkOf(landing.body, 'conformance')?.href).toBe(absolute(`${STAC}/conformance`));
    expect(linkOf(landing.body, 'data')?.href).toBe(absolute(`${STAC}/collections`));
    expect(linkOf(landing.body, 'children')?.href).toBe(absolute(`${STAC}/children`));
    expect(linkOf(landing.body, 'service-desc')?.href).toBe(absolute('/api/v1/openapi.json'));
    const searches = landing.body.links.filter((link) => link.rel === 'search');
    expect(searches.map((link) => link.method).sort()).toEqual(['GET', 'POST']);
    for (const link of searches) expect(link.href).toBe(absolute(`${STAC}/search`));
    // The root-level catalog created here is a child of the landing page.
    expect(landing.body.links).toContainEqual(
      expect.objectContaining({ rel: 'child', href: absolute(`${STAC}/catalogs/${catalog}`) }),
    );
    const conformance = await call<{ conformsTo: string[] }>('GET', `${STAC}/conformance`);
    expectShape(specConformance, conformance.body);
    expect(conformance.body.conformsTo).toEqual(landing.body.conformsTo);
    expect(conformance.body.conformsTo).toEqual(
      expect.arrayContaining([
        'https://api.stacspec.org/v1.0.0/core',
        'https://api.stacspec.org/v1.0.0/collections',
        'https://api.stacspec.org/v1.0.0/ogcapi-features',
        'https://api.stacspec.org/v1.0.0/item-search',
        'https://api.stacspec.org/v1.0.0-rc.2/children',
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
      ]),
    );
  });

  it('the service description links to it', async () => {
    const service = await call<Linked>('GET', '/');
    expect(service.body.links).toContainEqual(expect.objectContaining({ rel: 'data', href: absolute(STAC) }));
  });

  it('the OpenAPI document answers in the media type its link names, to a client that asks for it', async () => {
    const landing = await call<Linked>('GET', STAC);
    const link = linkOf(landing.body, 'service-desc') as unknown as { href: string; type: string };
    // The STAC API validator sends the link's type as Accept and wants it back as the Content-Type.
    const asked = await fetch(link.href, { headers: { accept: link.type } });
    expect(asked.status).toBe(200);
    expect(asked.headers.get('content-type')?.split(';')[0]).toBe(link.type.split(';')[0]);
    expect(((await asked.json()) as { openapi: string }).openapi).toMatch(/^3\./);
    for (const accept of ['*/*', 'application/*', 'text/html,application/xhtml+xml,*/*;q=0.8']) {
      const plain = await fetch(link.href, { headers: { accept } });
      expect(plain.headers.get('content-type')?.split(';')[0], accept).toBe('application/json');
      expect(plain.headers.get('vary'), accept).toMatch(/accept/i);
    }
  });

  it('the OpenAPI document it points to describes the STAC paths', async () => {
    const document = await call<{ paths: Record<string, unknown> }>('GET', '/api/v1/openapi.json');
    for (const path of [
      STAC,
      `${STAC}/search`,
      `${STAC}/collections/{collectionId}/items`,
      `${STAC}/children`,
    ]) {
      expect(Object.keys(document.body.paths)).toContain(path);
    }
  });
});

describe('collections', () => {
  it('one collection: the STAC shape, self/root/parent/items links', async () => {
    const read = await call<Linked & { id: string; license: string }>(
      'GET',
      `${STAC}/collections/${collection}`,
    );
    expect(read.status).toBe(200);
    expectShape(specCollection, read.body);
    expect(read.body.license).toBe('CC-BY-4.0');
    expect(linkOf(read.body, 'self')?.href).toBe(absolute(`${STAC}/collections/${collection}`));
    expect(linkOf(read.body, 'root')?.href).toBe(absolute(STAC));
    expect(linkOf(read.body, 'parent')?.href).toBe(absolute(`${STAC}/catalogs/${catalog}`));
    expect(linkOf(read.body, 'items')?.href).toBe(absolute(`${STAC}/collections/${collection}/items`));
  });

  it('the list pages to the end without repeats and holds the collection', async () => {
    const seen: string[] = [];
    let path: string | null = `${STAC}/collections?limit=2`;
    while (path !== null) {
      const page: {
        status: number;
        body: Linked & { collections: { id: string }[]; numberReturned: number };
      } = await call('GET', path);
      expect(page.status).toBe(200);
      expectShape(specCollections, page.body);
      expect(page.body.numberReturned).toBe(page.body.collections.length);
      seen.push(...page.body.collections.map((entry) => entry.id));
      const next = linkOf(page.body, 'next');
      path = next === undefined ? null : new URL(next.href).pathname + new URL(next.href).search;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(collection);
  });

  it("an item's links: self, root, parent and collection", async () => {
    const page = await call<{ features: (Linked & { id: string; collection?: string })[] }>(
      'GET',
      `${STAC}/collections/${collection}/items`,
    );
    expectShape(specItemCollection, page.body);
    const feature = page.body.features.find((entry) => entry.id === item);
    expect(feature?.collection).toBe(collection);
    expect(feature && linkOf(feature, 'self')?.href).toBe(
      absolute(`${STAC}/collections/${collection}/items/${item}`),
    );
    expect(feature && linkOf(feature, 'parent')?.href).toBe(absolute(`${STAC}/collections/${collection}`));
    expect(feature && linkOf(feature, 'collection')?.href).toBe(
      absolute(`${STAC}/collections/${collection}`),
    );
    expect(feature && linkOf(feature, 'root')?.href).toBe(absolute(STAC));
  });
});

describe('children and catalogs', () => {
  it('a catalog links its children and its own items; its children endpoint lists them', async () => {
    const read = await call<Linked>('GET', `${STAC}/catalogs/${catalog}`);
    expect(read.status).toBe(200);
    expectShape(specCatalog, read.body);
    const childHrefs = read.body.links.filter((link) => link.rel === 'child').map((link) => link.href);
    expect(childHrefs.sort()).toEqual(
      [absolute(`${STAC}/catalogs/${subCatalog}`), absolute(`${STAC}/collections/${collection}`)].sort(),
    );
    expect(read.body.links.filter((link) => link.rel === 'item').map((link) => link.href)).toEqual([
      absolute(`${STAC}/items/${catalogItem}`),
    ]);
    expect(linkOf(read.body, 'parent')?.href).toBe(absolute(STAC));
    const children = await call<Linked & { children: { id: string; type: string }[] }>(
      'GET',
      `${STAC}/catalogs/${catalog}/children`,
    );
    expectShape(specChildren, children.body);
    expect(children.body.children.map((child) => `${child.type}:${child.id}`).sort()).toEqual(
      [`Catalog:${subCatalog}`, `Collection:${collection}`].sort(),
    );
    expect(linkOf(children.body, 'self')?.href).toBe(absolute(`${STAC}/catalogs/${catalog}/children`));
    expect(linkOf(children.body, 'root')?.href).toBe(absolute(STAC));
  });

  it('the root children page to the end and hold the root-level catalog', async () => {
    const seen: string[] = [];
    let path: string | null = `${STAC}/children?limit=3`;
    while (path !== null) {
      const page: { body: Linked & { children: { id: string }[] } } = await call('GET', path);
      expectShape(specChildren, page.body);
      seen.push(...page.body.children.map((child) => child.id));
      const next = linkOf(page.body, 'next');
      path = next === undefined ? null : new URL(next.href).pathname + new URL(next.href).search;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(catalog);
    expect(seen).not.toContain(subCatalog);
  });
});

describe('limit above the maximum', () => {
  // STAC item search: "the server must act as if the request were for the maximum and not return an error".
  it.each([
    ['GET search', 'GET', `${STAC}/search?limit=5000`, undefined],
    [
      'GET search, more digits than a number holds',
      'GET',
      `${STAC}/search?limit=99999999999999999999`,
      undefined,
    ],
    ['POST search', 'POST', `${STAC}/search`, { limit: 5000 }],
    ['the collections', 'GET', `${STAC}/collections?limit=1001`, undefined],
  ])('%s serves at most the maximum, without an error', async (_name, method, path, body) => {
    const answer = await call<{ features?: unknown[]; collections?: unknown[] }>(method, path, {
      ...(body === undefined ? {} : { body }),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((answer.body.features ?? answer.body.collections ?? []).length).toBeLessThanOrEqual(1000);
  });
});

describe('errors', () => {
  const bad: [string, string][] = [
    ['bbox of 3 numbers', 'bbox=1,2,3'],
    ['bbox of 5 numbers', 'bbox=1,2,3,4,5'],
    ['bbox south > north', 'bbox=0,10,1,5'],
    ['bbox longitude out of range', 'bbox=-181,0,1,1'],
    ['bbox latitude out of range', 'bbox=0,-91,1,1'],
    ['bbox not numbers', 'bbox=a,b,c,d'],
    ['bbox heights reversed', 'bbox=0,0,10,1,1,5'],
    ['datetime not a date', 'datetime=yesterday'],
    ['datetime without a time zone', 'datetime=2024-01-01T00:00:00'],
    ['datetime of a day that does not exist', 'datetime=2024-02-30T00:00:00Z'],
    ['datetime interval reversed', 'datetime=2024-01-02T00:00:00Z/2024-01-01T00:00:00Z'],
    ['datetime open both ends', 'datetime=../..'],
    ['datetime of three parts', 'datetime=2024-01-01T00:00:00Z/2024-01-02T00:00:00Z/2024-01-03T00:00:00Z'],
    ['limit 0', 'limit=0'],
    ['limit not a number', 'limit=ten'],
    ['a malformed token', 'token=abc'],
    ['unknown collection', 'collections=00000000-0000-4000-8000-000000000000'],
    ['a collection id that is no uuid', 'collections=sentinel-2'],
    ['intersects not JSON', 'intersects={'],
    ['intersects not a geometry', 'intersects={"type":"Feature"}'],
    ['intersects with a position out of range', 'intersects={"type":"Point","coordinates":[200,0]}'],
    ['intersects and bbox together', 'bbox=0,0,1,1&intersects={"type":"Point","coordinates":[0,0]}'],
    ['a parameter the API does not define', 'sort=-datetime'],
    ['a filter that does not parse', 'filter=cloud<'],
    ['a repeated parameter', 'limit=1&limit=2'],
  ];
  it.each(bad)('GET search: %s answers 400 with code, description and message', async (_name, query) => {
    const answer = await call('GET', `${STAC}/search?${query.replace(/[{}"[\]]/g, encodeURIComponent)}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expectShape(specError, answer.body);
  });

  const badBodies: [string, unknown][] = [
    ['bbox of 5 numbers', { bbox: [1, 2, 3, 4, 5] }],
    ['bbox south > north', { bbox: [0, 10, 1, 5] }],
    ['bbox out of range', { bbox: [0, 0, 190, 1] }],
    ['bbox of strings', { bbox: ['0', '0', '1', '1'] }],
    ['datetime reversed', { datetime: '2024-01-02T00:00:00Z/2024-01-01T00:00:00Z' }],
    ['datetime a number', { datetime: 2024 }],
    [
      'malformed geometry',
      {
        intersects: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
            ],
          ],
        },
      },
    ],
    ['geometry of an unknown type', { intersects: { type: 'Circle', coordinates: [0, 0] } }],
    ['unknown collection', { collections: ['00000000-0000-4000-8000-000000000000'] }],
    ['limit not an integer', { limit: 2.5 }],
    ['ids not strings', { ids: [1, 2] }],
    ['a field the API does not define', { sort: [{ field: 'datetime', direction: 'desc' }] }],
    ['a filter that is not CQL2 JSON', { filter: { op: '=', args: [] } }],
    [
      'a token of another list',
      {
        token:
          'WyJjb250YWluZXJzIiwiMjAyNC0wMS0wMVQwMDowMDowMC4wMDAwMDBaIiwiMDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtMDAwMDAwMDAwMDAwIl0',
      },
    ],
  ];
  it.each(badBodies)(
    'POST search: %s answers 400 with code, description and message',
    async (_name, body) => {
      const answer = await call('POST', `${STAC}/search`, { body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expectShape(specError, answer.body);
    },
  );

  it('a body that is not JSON answers 400 in the STAC shape', async () => {
    const answer = await callAt(inject('baseUrl'), 'POST', `${STAC}/search`, {
      rawBody: '{"bbox":',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expectShape(specError, answer.body);
  });

  it("bad parameters of a collection's items and of the lists answer 400", async () => {
    for (const path of [
      `${STAC}/collections/${collection}/items?bbox=0,0,1`,
      `${STAC}/collections/${collection}/items?datetime=nope`,
      `${STAC}/collections/${collection}/items?limit=0`,
      `${STAC}/collections/${collection}/items?ids=${item}`,
      `${STAC}/collections?limit=-1`,
      `${STAC}/children?token=nope`,
    ]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(400);
      expectShape(specError, answer.body);
    }
  });

  it('what does not exist answers 404 in the STAC shape', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const path of [
      `${STAC}/collections/${missing}`,
      `${STAC}/collections/sentinel-2`,
      `${STAC}/collections/${catalog}`,
      `${STAC}/collections/${missing}/items`,
      `${STAC}/collections/${collection}/items/${missing}`,
      `${STAC}/collections/${collection}/items/not-a-uuid`,
      `${STAC}/items/${missing}`,
      `${STAC}/catalogs/${collection}`,
      `${STAC}/catalogs/${missing}/children`,
      `${STAC}/no-such-resource`,
    ]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(404);
      expectShape(specError, answer.body);
    }
  });
});
