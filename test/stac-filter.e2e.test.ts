import { beforeAll, describe, expect, it } from 'vitest';
import {
  evaluateCql2,
  parseCql2Text,
  printCql2Json,
  type Cql2Node,
  type Queryable,
  type QueryableType,
} from '@portal/cql2';
import { signUp, useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { createPortalObject, pageToEnd, random } from './support/stac-fixture.js';
import { expectShape, specError, type SpecItem } from './support/stac-schemas.js';

/**
 * The STAC filter extension against brute force: every filter runs as CQL2 text (GET) and as CQL2 JSON
 * (POST), paged to the end with a small limit, and must answer exactly the items that the in-memory
 * evaluator of the same filter selects from the same items' STAC JSON (as the search serves them).
 * The items have instants and ranges, rectangles and points, arrays, accents, and a property whose
 * values have every JSON type, so the guards of free-form properties are exercised too.
 */

useSignedInCaller();

let collectionA = '';
let collectionB = '';
/** Every item of both collections, as the unfiltered search serves them, in its order. */
let served: SpecItem[] = [];

const T0 = Date.parse('2020-01-01T00:00:00Z');
const DAY_MS = 24 * 3600 * 1000;
const platforms = ['sentinel-2a', 'Sentinel-2B', 'landsat-8', 'Landsat-9', 'Écho-1'];
const instrumentSets = [['msi'], ['oli', 'tirs'], ['oli'], ['msi', 'oli'], []];
/** Values of one property with mixed JSON types: a number, numeric and other strings, booleans, null, objects. */
const mixedValues: unknown[] = [
  5,
  '3.14',
  0.5,
  'abc',
  true,
  null,
  { a: 1 },
  [1, 2],
  -2,
  '2021-01-01T00:00:00Z',
];

function itemBody(next: () => number, n: number, parentId: string): Record<string, unknown> {
  const west = Math.round((next() * 300 - 150) * 10) / 10;
  const south = Math.round((next() * 140 - 70) * 10) / 10;
  const box = [
    west,
    south,
    west + 1 + Math.round(next() * 250) / 10,
    south + 1 + Math.round(next() * 150) / 10,
  ];
  const start = new Date(T0 + Math.floor(next() * 4 * 365) * DAY_MS + n * 60_000).toISOString();
  const isRange = n % 3 === 0;
  const end = new Date(Date.parse(start) + Math.floor(next() * 200) * DAY_MS).toISOString();
  const footprint =
    n % 4 === 0
      ? { geometry: { type: 'Point', coordinates: [box[0], box[1]] } }
      : n % 4 === 1
        ? { bbox: box }
        : {
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [box[0], box[1]],
                  [box[2], box[1]],
                  [box[2], box[3]],
                  [box[0], box[3]],
                  [box[0], box[1]],
                ],
              ],
            },
          };
  const properties: Record<string, unknown> = {
    'eo:cloud_cover': Math.round(next() * 100),
    'view:off_nadir': Math.round(next() * 30),
    gsd: [10, 15, 30][n % 3],
    platform: platforms[n % platforms.length],
    instruments: instrumentSets[(n * 7) % instrumentSets.length],
    n,
  };
  // One item in eleven has no `mixed` at all (a missing key).
  if (n % 11 !== 10) properties.mixed = mixedValues[n % mixedValues.length];
  return {
    title: n % 2 === 0 ? `Scène ${n}` : `Scene ${n}`,
    parentId,
    ...footprint,
    ...(isRange ? { start_datetime: start, end_datetime: end } : { datetime: start }),
    properties,
  };
}

beforeAll(async () => {
  const next = random(15_2026);
  const catalog = await createPortalObject('catalogs', { title: 'STAC filter catalog' });
  collectionA = await createPortalObject('collections', { title: 'STAC filter A', parentId: catalog });
  collectionB = await createPortalObject('collections', { title: 'STAC filter B', parentId: catalog });
  const bodies = Array.from({ length: 36 }, (_, n) =>
    itemBody(next, n, n % 2 === 0 ? collectionA : collectionB),
  );
  for (let index = 0; index < bodies.length; index += 6) {
    await Promise.all(bodies.slice(index, index + 6).map((body) => createPortalObject('items', body)));
  }
  const all = await pageToEnd({
    method: 'POST',
    path: '/api/v1/stac/search',
    body: { collections: [collectionA, collectionB], limit: 100 },
  });
  served = all.pages.flatMap((page) => page.features);
  expect(served).toHaveLength(36);
}, 120_000);

/** The types of the server's queryables (docs/stac.md); any other name is a free-form property. */
const fixedTypes: Record<string, QueryableType> = {
  id: 'string',
  collection: 'string',
  datetime: 'timestamp',
  start_datetime: 'timestamp',
  end_datetime: 'timestamp',
  geometry: 'geometry',
  title: 'string',
  description: 'string',
  created: 'timestamp',
  updated: 'timestamp',
};
const resolve = (name: string): Queryable => ({
  sql: '',
  type: fixedTypes[name] ?? 'json',
  ...(name === 'datetime' && { interval: { start: '', end: '' } }),
});

/** An item's STAC JSON as the evaluator reads it: the fields of the queryables, as the client sees them. */
function recordOf(item: SpecItem) {
  const properties = item.properties as Record<string, unknown>;
  return {
    get(name: string): unknown {
      if (name === 'id') return item.id;
      if (name === 'collection') return (item as { collection?: string }).collection ?? null;
      if (name === 'geometry') return item.geometry;
      if (name in fixedTypes) return properties[name] ?? null;
      return properties[name];
    },
    interval(): readonly [unknown, unknown] {
      return [
        properties.start_datetime ?? properties.datetime,
        properties.end_datetime ?? properties.datetime,
      ];
    },
  };
}

function bruteForce(node: Cql2Node, items: readonly SpecItem[]): string[] {
  return items.filter((item) => evaluateCql2(node, resolve, recordOf(item)) === true).map((item) => item.id);
}

/** One filter for each construct of every declared class, in CQL2 text; the JSON is the same tree. */
const filters = (): string[] => [
  // basic-cql2
  `"eo:cloud_cover" < 30`,
  `platform = 'landsat-8' OR "eo:cloud_cover" >= 90`,
  `NOT (platform = 'landsat-8') AND "eo:cloud_cover" <> 50`,
  `mixed IS NULL`,
  `start_datetime IS NOT NULL`,
  `datetime > TIMESTAMP('2022-01-01T00:00:00Z')`,
  `datetime <= DATE('2021-06-30')`,
  `collection = '${collectionA}'`,
  `id = '${served[3]?.id ?? ''}' OR id = '${served[10]?.id ?? ''}'`,
  `description = 'STAC test object' AND n >= 30`,
  `created >= TIMESTAMP('2000-01-01T00:00:00Z') AND n < 5`,
  // advanced-comparison-operators
  `platform LIKE 'land%'`,
  `title NOT LIKE 'Scene 1_'`,
  `"eo:cloud_cover" BETWEEN 20 AND 60`,
  `"eo:cloud_cover" NOT BETWEEN 20 AND 60`,
  `platform IN ('landsat-8', 'Landsat-9', 'nothing')`,
  `n NOT IN (1, 2, 3, 4, 5)`,
  // case-insensitive-comparison, accent-insensitive-comparison
  `CASEI(platform) = CASEI('LANDSAT-9')`,
  `CASEI(platform) LIKE CASEI('SENTINEL%')`,
  `ACCENTI(title) LIKE ACCENTI('Scene 1%')`,
  `ACCENTI(CASEI(platform)) = ACCENTI(CASEI('ECHO-1'))`,
  // basic-spatial-functions, basic-spatial-functions-plus, spatial-functions
  `S_INTERSECTS(geometry, BBOX(-30, -40, 60, 40))`,
  `S_INTERSECTS(geometry, POINT(10 10))`,
  `S_INTERSECTS(geometry, POLYGON((-100 -50, 50 -50, 50 20, -100 20, -100 -50)))`,
  `S_INTERSECTS(geometry, LINESTRING(-179 0, 179 0))`,
  `S_INTERSECTS(geometry, MULTIPOINT((0 0), (100 30)))`,
  `S_WITHIN(geometry, POLYGON((-120 -60, 120 -60, 120 60, -120 60, -120 -60)))`,
  `S_DISJOINT(geometry, BBOX(0, 0, 90, 90))`,
  `S_CONTAINS(geometry, POINT(0 0)) OR S_TOUCHES(geometry, BBOX(-180, -90, 0, 0))`,
  `S_OVERLAPS(geometry, BBOX(-50, -30, 50, 30)) OR S_CROSSES(geometry, LINESTRING(-180 10, 180 10))`,
  `S_EQUALS(geometry, geometry) AND NOT S_INTERSECTS(geometry, BBOX(-180, -90, 0, 90))`,
  // temporal-functions
  `T_INTERSECTS(datetime, INTERVAL('2021-01-01T00:00:00Z', '2022-01-01T00:00:00Z'))`,
  `T_BEFORE(datetime, TIMESTAMP('2022-06-01T00:00:00Z'))`,
  `T_AFTER(datetime, DATE('2022-01-01'))`,
  `T_DURING(datetime, INTERVAL('2020-06-01T00:00:00Z', '..'))`,
  `T_CONTAINS(datetime, TIMESTAMP('2021-03-01T00:00:00Z')) OR T_OVERLAPS(datetime, INTERVAL('2022-01-01', '2022-03-01'))`,
  `T_DISJOINT(datetime, INTERVAL('..', '2021-01-01T00:00:00Z')) AND start_datetime IS NOT NULL`,
  // array-functions
  `A_CONTAINS(instruments, ('msi'))`,
  `A_OVERLAPS(instruments, ('tirs', 'nothing'))`,
  `A_CONTAINEDBY(instruments, ('msi', 'oli'))`,
  `A_EQUALS(instruments, ('oli', 'tirs'))`,
  // property-property
  `"view:off_nadir" < "eo:cloud_cover"`,
  `gsd = "view:off_nadir" OR start_datetime < end_datetime`,
  // arithmetic
  `"eo:cloud_cover" * 2 + 5 > gsd * 4`,
  `"eo:cloud_cover" % 7 = 3 OR "eo:cloud_cover" div 10 = 4`,
  `n ^ 2 < 100 AND -n < -2`,
  `("eo:cloud_cover" - "view:off_nadir") / gsd >= 2`,
  // a free-form property of every JSON type: never a failure, each type selected only by its own
  `mixed > 1`,
  `NOT (mixed > 1)`,
  `mixed = 'abc' OR mixed = TRUE`,
  `mixed LIKE '3%'`,
  `mixed > TIMESTAMP('2020-06-01T00:00:00Z')`,
  `mixed + 1 > 2`,
  `mixed = n OR mixed IN (0.5, 'x')`,
  `missing_property = 1 OR missing_property IS NULL AND n < 3`,
];

describe('filter: every declared class against a brute-force evaluation', () => {
  it('each filter, as text by GET and as JSON by POST, paged to the end', async () => {
    const both = [collectionA, collectionB];
    let discriminating = 0;
    for (const text of filters()) {
      const node = parseCql2Text(text);
      const want = bruteForce(node, served);
      const get = new URLSearchParams({ collections: both.join(','), limit: '4', filter: text });
      const byGet = await pageToEnd({ method: 'GET', path: `/api/v1/stac/search?${get.toString()}` });
      expect(byGet.ids, `GET ${text}`).toEqual(want);
      const byPost = await pageToEnd({
        method: 'POST',
        path: '/api/v1/stac/search',
        body: { collections: both, limit: 4, filter: printCql2Json(node), 'filter-lang': 'cql2-json' },
      });
      expect(byPost.ids, `POST ${text}`).toEqual(want);
      // The next links carry the filter: a page after the first answers within the filter too.
      for (const page of byGet.pages.slice(0, -1)) {
        const next = page.links.find((link) => link.rel === 'next');
        expect(new URL(next?.href ?? 'http://x').searchParams.get('filter')).toBe(text);
      }
      if (want.length > 0 && want.length < served.length) discriminating += 1;
    }
    // The filters must select something and not everything, or the comparison proves little.
    expect(discriminating).toBeGreaterThanOrEqual(filters().length - 4);
  }, 300_000);

  it('a collection’s items take a filter too (text by default)', async () => {
    const inA = served.filter((item) => (item as { collection?: string }).collection === collectionA);
    for (const text of [`"eo:cloud_cover" >= 40`, `S_INTERSECTS(geometry, BBOX(-100, -60, 100, 60))`]) {
      const want = bruteForce(parseCql2Text(text), inA);
      const query = new URLSearchParams({ limit: '3', filter: text, 'filter-lang': 'cql2-text' });
      const { ids } = await pageToEnd({
        method: 'GET',
        path: `/api/v1/stac/collections/${collectionA}/items?${query.toString()}`,
      });
      expect(ids).toEqual(want);
    }
  });

  it('a JSON filter by GET (filter-lang=cql2-json) and a text filter in a POST body', async () => {
    const text = `"eo:cloud_cover" < 50 AND platform LIKE '%2%'`;
    const node = parseCql2Text(text);
    const want = bruteForce(node, served);
    const query = new URLSearchParams({
      collections: `${collectionA},${collectionB}`,
      filter: JSON.stringify(printCql2Json(node)),
      'filter-lang': 'cql2-json',
      'filter-crs': 'http://www.opengis.net/def/crs/OGC/1.3/CRS84',
    });
    expect((await pageToEnd({ method: 'GET', path: `/api/v1/stac/search?${query.toString()}` })).ids).toEqual(
      want,
    );
    const byPost = await pageToEnd({
      method: 'POST',
      path: '/api/v1/stac/search',
      body: { collections: [collectionA, collectionB], filter: text, 'filter-lang': 'cql2-text', limit: 2 },
    });
    expect(byPost.ids).toEqual(want);
  });
});

describe('filter: refusals are 400s in the STAC error shape', () => {
  const expectRefused = (response: Awaited<ReturnType<typeof call>>, pattern: RegExp): void => {
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expectShape(specError, response.body);
    const body = response.body as { code: string; description: string; message: string };
    expect(body.code).toBe('INVALID_FILTER');
    expect(body.description).toMatch(pattern);
    expect(body.message).toMatch(pattern);
  };
  const get = (query: Record<string, string>) =>
    call('GET', `/api/v1/stac/search?${new URLSearchParams(query).toString()}`);

  it('a syntax error names the position and the expected tokens', async () => {
    expectRefused(await get({ filter: `"eo:cloud_cover" < AND` }), /column 20.*expected/);
    expectRefused(
      await call('GET', `/api/v1/stac/collections/${collectionA}/items?filter=${encodeURIComponent('n = ')}`),
      /syntax error.*expected/,
    );
  });

  it('an unknown function, a type mismatch, a bad JSON filter', async () => {
    expectRefused(
      await call('POST', '/api/v1/stac/search', { body: { filter: { op: 'nope', args: [] } } }),
      /unsupported function 'nope'/,
    );
    expectRefused(await get({ filter: `buffer(geometry, 10) = 1` }), /unsupported function 'buffer'/);
    expectRefused(await get({ filter: `title > 5` }), /cannot compare string property 'title'/);
    expectRefused(
      await call('POST', '/api/v1/stac/search', {
        body: { filter: { op: '=', args: [{ property: 5 }, 1] } },
      }),
      /invalid CQL2 JSON/,
    );
    expectRefused(await get({ filter: '{not json', 'filter-lang': 'cql2-json' }), /valid JSON/);
  });

  it('an unsupported filter-crs or filter-lang, with or without a filter', async () => {
    expectRefused(await get({ filter: 'n = 1', 'filter-crs': 'EPSG:3857' }), /filter-crs/);
    expectRefused(await get({ 'filter-crs': 'http://www.opengis.net/def/crs/EPSG/0/3857' }), /filter-crs/);
    expectRefused(await get({ filter: 'n = 1', 'filter-lang': 'cql-text' }), /filter-lang/);
    expectRefused(
      await call('POST', '/api/v1/stac/search', {
        body: { filter: { op: '=', args: [1, 1] }, 'filter-lang': 'x' },
      }),
      /filter-lang/,
    );
  });
});

describe('filter: property names are never SQL', () => {
  it('a name with quotes, backslashes or a NUL answers 200 (no match) or 400, never 500', async () => {
    const names = [`it's`, `a'); DROP TABLE x; --`, `back\\slash`, `"quoted"`, `nul\u0000`];
    for (const name of names) {
      const filter = { op: '=', args: [{ property: name }, 1] };
      const answer = await call<{ features?: unknown[] }>('POST', '/api/v1/stac/search', {
        body: { collections: [collectionA], filter },
      });
      expect([200, 400], `${name}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
      if (answer.status === 200) expect(answer.body.features).toEqual([]);
    }
  });
});

describe('filter: queryables and conformance', () => {
  it('/queryables is a JSON Schema of the fixed queryables, open to any property', async () => {
    for (const path of ['/api/v1/stac/queryables', `/api/v1/stac/collections/${collectionA}/queryables`]) {
      const response = await call('GET', path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/schema\+json/);
      expect(response.body.additionalProperties).toBe(true);
      expect(response.body.type).toBe('object');
      expect(String(response.body.$id)).toMatch(new RegExp(`${path.replaceAll('/', '\\/')}$`));
      const properties = response.body.properties as Record<string, Record<string, unknown>>;
      expect(Object.keys(properties).sort()).toEqual(Object.keys(fixedTypes).sort());
      expect(properties.created).toMatchObject({ type: 'string', format: 'date-time' });
      expect(properties.geometry?.$ref).toMatch(/geojson/i);
    }
    const missing = await call('GET', `/api/v1/stac/collections/${crypto.randomUUID()}/queryables`);
    expect(missing.status).toBe(404);
    const landing = await call<{ links: { rel: string; href: string }[] }>('GET', '/api/v1/stac');
    const link = landing.body.links.find(
      (l) => l.rel === 'http://www.opengis.net/def/rel/ogc/1.0/queryables',
    );
    expect(link?.href).toMatch(/\/api\/v1\/stac\/queryables$/);
    const collection = await call<{ links: { rel: string; href: string }[] }>(
      'GET',
      `/api/v1/stac/collections/${collectionA}`,
    );
    const own = collection.body.links.find(
      (l) => l.rel === 'http://www.opengis.net/def/rel/ogc/1.0/queryables',
    );
    expect(own?.href).toMatch(new RegExp(`/api/v1/stac/collections/${collectionA}/queryables$`));
  });

  it('conformsTo declares the filter classes (and not functions)', async () => {
    const { body } = await call<{ conformsTo: string[] }>('GET', '/api/v1/stac/conformance');
    const cql2 = (name: string) => `http://www.opengis.net/spec/cql2/1.0/conf/${name}`;
    expect(body.conformsTo).toEqual(
      expect.arrayContaining([
        'https://api.stacspec.org/v1.0.0-rc.2/item-search#filter',
        'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter',
        'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter',
        ...[
          'cql2-text',
          'cql2-json',
          'basic-cql2',
          'advanced-comparison-operators',
          'case-insensitive-comparison',
          'accent-insensitive-comparison',
          'basic-spatial-functions',
          'basic-spatial-functions-plus',
          'spatial-functions',
          'temporal-functions',
          'array-functions',
          'property-property',
          'arithmetic',
        ].map(cql2),
      ]),
    );
    expect(body.conformsTo).not.toContain(cql2('functions'));
  });
});

describe('filter: visibility holds', () => {
  it('a private item never matches for a caller who may not read it', async () => {
    const owner = await signUp({ name: 'Filter owner' });
    const outsider = await signUp({ name: 'Filter outsider' });
    const by = { headers: owner.headers };
    const marker = `marker-${crypto.randomUUID()}`;
    const catalog = await createPortalObject('catalogs', { title: 'Filter vis', visibility: 'public' }, by);
    const collection = await createPortalObject(
      'collections',
      { title: 'Filter vis collection', parentId: catalog, visibility: 'public' },
      by,
    );
    const common = { parentId: collection, bbox: [1, 1, 2, 2], datetime: '2024-01-01T00:00:00Z' };
    const publicItem = await createPortalObject(
      'items',
      { title: 'public', visibility: 'public', ...common, properties: { marker } },
      by,
    );
    const privateItem = await createPortalObject(
      'items',
      { title: 'private', visibility: 'private', ...common, properties: { marker } },
      by,
    );
    const filter = `marker = '${marker}' OR id = '${privateItem}'`;
    const path = `/api/v1/stac/search?${new URLSearchParams({ filter }).toString()}`;
    const seen = async (options: Parameters<typeof pageToEnd>[1]) =>
      (await pageToEnd({ method: 'GET', path }, options)).ids.sort();
    expect(await seen({ headers: owner.headers })).toEqual([publicItem, privateItem].sort());
    expect(await seen({ headers: outsider.headers })).toEqual([publicItem]);
    expect(await seen({ as: 'anonymous' })).toEqual([publicItem]);
    const byPost = await pageToEnd(
      {
        method: 'POST',
        path: '/api/v1/stac/search',
        body: { filter: { op: '=', args: [{ property: 'id' }, privateItem] } },
      },
      { as: 'anonymous' },
    );
    expect(byPost.ids).toEqual([]);
  });
});
