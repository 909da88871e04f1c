import { beforeAll, describe, expect, it } from 'vitest';
import { signUp, useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { createPortalObject, pageToEnd, random } from './support/stac-fixture.js';
import { expectShape, specError, type SpecItem } from './support/stac-schemas.js';
import { z } from 'zod';

/**
 * The aggregation extension against a brute-force evaluation of the test's own items: every
 * aggregation, under every search parameter (scoped by `ids` to this file's items, since the stack is
 * shared), by GET and POST, at the root and under a collection, for every interval and several
 * precisions; its total against the search's own result for the same parameters; visibility; errors.
 */

useSignedInCaller();

const INTERVALS = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const;
type Interval = (typeof INTERVALS)[number];
const EDGES = [10, 20, 30, 40, 50, 60, 70, 80, 90];
const ALL = [
  'total_count',
  'datetime_min',
  'datetime_max',
  'collection_frequency',
  'datetime_frequency',
  'cloud_cover_frequency',
  'centroid_geohash_grid_frequency',
  'centroid_geotile_grid_frequency',
];

const bucketShape = z.strictObject({
  key: z.string(),
  data_type: z.enum(['string', 'datetime', 'numeric']),
  frequency: z.int().nonnegative(),
  from: z.union([z.number(), z.string()]).optional(),
  to: z.union([z.number(), z.string()]).optional(),
});
const aggregationShape = z.looseObject({
  name: z.string(),
  data_type: z.string(),
  value: z.union([z.number(), z.string(), z.null()]).optional(),
  buckets: z.array(bucketShape).optional(),
  overflow: z.int().nonnegative().optional(),
});
const collectionShape = z.strictObject({
  type: z.literal('AggregationCollection'),
  aggregations: z.array(aggregationShape),
  links: z.array(z.looseObject({ rel: z.string(), href: z.url() })),
});
type Aggregation = z.infer<typeof aggregationShape>;
type Bucket = z.infer<typeof bucketShape>;

/** Where each created item's footprint centroid is (null: no geometry), known from what was sent. */
const centroids = new Map<string, readonly [number, number] | null>();
let catalog: string;
let collectionA: string;
let collectionB: string;
let ids: string[] = [];
let privateId: string;
let items: SpecItem[] = [];

/** Coordinates with decimals: no centroid falls on a geohash or tile edge. */
const coordinate = (next: () => number, span: number) =>
  Math.round((next() * 2 - 1) * span * 1000) / 1000 + 0.0001;

const DAYS = ['2021-03-01T10:20:30Z', '2021-03-01T10:20:30Z', '2020-12-31T23:59:59Z', '2022-01-03T00:00:00Z'];
const CLOUDS: unknown[] = [0, 5.5, 10, 19.99, 20, 35, 50, 89.9, 90, 100, 'cloudy', undefined, -3, 150];

beforeAll(async () => {
  const next = random(2026_11);
  catalog = await createPortalObject('catalogs', { title: 'Aggregation catalog', visibility: 'public' });
  collectionA = await createPortalObject('collections', {
    title: 'Aggregation A',
    parentId: catalog,
    visibility: 'public',
  });
  collectionB = await createPortalObject('collections', {
    title: 'Aggregation B',
    parentId: catalog,
    visibility: 'public',
  });
  const parents = [collectionA, collectionA, collectionB, catalog];
  const bodies = Array.from({ length: 36 }, (_, n) => {
    const lon = coordinate(next, 170);
    const lat = coordinate(next, 80);
    const shape = n % 5;
    let place: Record<string, unknown> = {};
    let centroid: readonly [number, number] | null = null;
    if (shape === 0) {
      place = { geometry: { type: 'Point', coordinates: [lon, lat] } };
      centroid = [lon, lat];
    } else if (shape !== 4) {
      const width = 0.5 + shape;
      place = { bbox: [lon - width, lat - 1, lon + width, lat + 1] };
      centroid = [lon, lat];
    }
    const start = DAYS[n % DAYS.length] as string;
    const offset = Math.floor(next() * 400) * 86_400_000 + Math.floor(next() * 86_400) * 1000;
    const when = new Date(Date.parse(start) + offset).toISOString();
    const time =
      n % 3 === 1
        ? { start_datetime: when, end_datetime: new Date(Date.parse(when) + 3 * 86_400_000).toISOString() }
        : n % 7 === 6
          ? {}
          : { datetime: when };
    const cloud = CLOUDS[n % CLOUDS.length];
    return {
      body: {
        title: `${n % 2 === 0 ? 'aggregation even' : 'aggregation odd'} ${n}`,
        parentId: parents[n % parents.length],
        visibility: 'public',
        ...place,
        ...time,
        properties: { n, ...(cloud === undefined ? {} : { 'eo:cloud_cover': cloud }) },
      },
      centroid,
    };
  });
  for (let index = 0; index < bodies.length; index += 6) {
    const batch = bodies.slice(index, index + 6);
    const created = await Promise.all(batch.map(({ body }) => createPortalObject('items', body)));
    created.forEach((id, offset) => centroids.set(id, batch[offset]?.centroid ?? null));
    ids.push(...created);
  }
  privateId = await createPortalObject('items', {
    title: 'aggregation private',
    parentId: collectionA,
    visibility: 'private',
    geometry: { type: 'Point', coordinates: [10.123, 20.456] },
    datetime: '2021-03-02T00:00:00Z',
    properties: { n: 99, 'eo:cloud_cover': 42 },
  });
  centroids.set(privateId, [10.123, 20.456]);
  ids = [...ids, privateId];
  const { pages } = await pageToEnd({
    method: 'POST',
    path: '/api/v1/stac/search',
    body: { ids, limit: 100 },
  });
  items = pages.flatMap((page) => page.features);
  expect(items).toHaveLength(ids.length);
}, 180_000);

// --- the brute force -------------------------------------------------------------------------------

const startOf = (item: SpecItem) =>
  Date.parse(String(item.properties.start_datetime ?? item.properties.datetime));
const endOf = (item: SpecItem) =>
  Date.parse(String(item.properties.end_datetime ?? item.properties.datetime));

function truncate(time: number, interval: Interval): Date {
  const date = new Date(time);
  const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  switch (interval) {
    case 'year':
      return new Date(Date.UTC(year, 0, 1));
    case 'quarter':
      return new Date(Date.UTC(year, month - (month % 3), 1));
    case 'month':
      return new Date(Date.UTC(year, month, 1));
    case 'week':
      return new Date(Date.UTC(year, month, day - ((date.getUTCDay() + 6) % 7)));
    case 'day':
      return new Date(Date.UTC(year, month, day));
    case 'hour':
      return new Date(Math.floor(time / 3_600_000) * 3_600_000);
    case 'minute':
      return new Date(Math.floor(time / 60_000) * 60_000);
    case 'second':
      return new Date(Math.floor(time / 1000) * 1000);
  }
}

function nextStart(start: Date, interval: Interval): Date {
  const [year, month, day] = [start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()];
  const t = start.getTime();
  switch (interval) {
    case 'year':
      return new Date(Date.UTC(year + 1, 0, 1));
    case 'quarter':
      return new Date(Date.UTC(year, month + 3, 1));
    case 'month':
      return new Date(Date.UTC(year, month + 1, 1));
    case 'week':
      return new Date(Date.UTC(year, month, day + 7));
    case 'day':
      return new Date(Date.UTC(year, month, day + 1));
    case 'hour':
      return new Date(t + 3_600_000);
    case 'minute':
      return new Date(t + 60_000);
    case 'second':
      return new Date(t + 1000);
  }
}

const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';

function geohash([lon, lat]: readonly [number, number], precision: number): string {
  const lons = [-180, 180];
  const lats = [-90, 90];
  let hash = '';
  let bits = 0;
  let value = 0;
  let even = true;
  while (hash.length < precision) {
    const range = even ? lons : lats;
    const coordinate = even ? lon : lat;
    const mid = ((range[0] as number) + (range[1] as number)) / 2;
    value <<= 1;
    if (coordinate > mid) {
      value |= 1;
      range[0] = mid;
    } else range[1] = mid;
    even = !even;
    bits += 1;
    if (bits === 5) {
      hash += BASE32.charAt(value);
      bits = 0;
      value = 0;
    }
  }
  return hash;
}

function geotile([lon, lat]: readonly [number, number], zoom: number): string {
  const tiles = 2 ** zoom;
  const clamp = (value: number) => Math.min(Math.max(value, 0), tiles - 1);
  const limited = (Math.min(Math.max(lat, -85.0511287798066), 85.0511287798066) * Math.PI) / 180;
  const x = clamp(Math.floor(((lon + 180) / 360) * tiles));
  const y = clamp(Math.floor(((1 - Math.asinh(Math.tan(limited)) / Math.PI) / 2) * tiles));
  return `${zoom}/${x}/${y}`;
}

/** Most first, then by key bytewise: the order of the term and grid distributions. */
function byFrequency(keys: readonly (string | null)[]): { buckets: Bucket[]; overflow: number } {
  const counts = new Map<string, number>();
  for (const key of keys) if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1);
  const buckets = [...counts]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, frequency]) => ({ key, data_type: 'string' as const, frequency }));
  return { buckets, overflow: keys.filter((key) => key === null).length };
}

interface Options {
  readonly interval: Interval;
  readonly geohash: number;
  readonly geotile: number;
}

function bruteForce(matches: readonly SpecItem[], options: Options): Aggregation[] {
  const centroidOf = (item: SpecItem) => centroids.get(item.id) ?? null;
  const byTime = new Map<number, number>();
  for (const item of matches) {
    const key = truncate(startOf(item), options.interval).getTime();
    byTime.set(key, (byTime.get(key) ?? 0) + 1);
  }
  const clouds = matches.map((item) => item.properties['eo:cloud_cover']);
  const numeric = clouds.filter((value): value is number => typeof value === 'number');
  const ranges = Array.from({ length: EDGES.length + 1 }, (_, index) => {
    const from = EDGES[index - 1];
    const to = EDGES[index];
    return {
      key: `${from ?? '*'}-${to ?? '*'}`,
      data_type: 'numeric' as const,
      frequency: numeric.filter((value) => EDGES.filter((edge) => edge <= value).length === index).length,
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
    };
  });
  const iso = (time: number) => new Date(time).toISOString();
  return [
    { name: 'total_count', data_type: 'integer', value: matches.length },
    {
      name: 'datetime_min',
      data_type: 'datetime',
      value: matches.length === 0 ? null : iso(Math.min(...matches.map(startOf))),
    },
    {
      name: 'datetime_max',
      data_type: 'datetime',
      value: matches.length === 0 ? null : iso(Math.max(...matches.map(endOf))),
    },
    {
      name: 'collection_frequency',
      data_type: 'frequency_distribution',
      ...byFrequency(matches.map((item) => item.collection ?? null)),
    },
    {
      name: 'datetime_frequency',
      data_type: 'frequency_distribution',
      interval: options.interval,
      buckets: [...byTime]
        .sort(([a], [b]) => a - b)
        .map(([key, frequency]) => ({
          key: iso(key),
          data_type: 'datetime' as const,
          frequency,
          from: iso(key),
          to: nextStart(new Date(key), options.interval).toISOString(),
        })),
      overflow: 0,
    },
    {
      name: 'cloud_cover_frequency',
      data_type: 'frequency_distribution',
      buckets: ranges,
      overflow: matches.length - numeric.length,
    },
    {
      name: 'centroid_geohash_grid_frequency',
      data_type: 'frequency_distribution',
      precision: options.geohash,
      ...byFrequency(
        matches.map((item) => {
          const centroid = centroidOf(item);
          return centroid === null ? null : geohash(centroid, options.geohash);
        }),
      ),
    },
    {
      name: 'centroid_geotile_grid_frequency',
      data_type: 'frequency_distribution',
      precision: options.geotile,
      ...byFrequency(
        matches.map((item) => {
          const centroid = centroidOf(item);
          return centroid === null ? null : geotile(centroid, options.geotile);
        }),
      ),
    },
  ];
}

// --- helpers -----------------------------------------------------------------------------------------

type Params = Record<string, string>;

async function aggregateGet(path: string, params: Params, as?: 'anonymous'): Promise<Aggregation[]> {
  const response = await call(
    'GET',
    `${path}?${new URLSearchParams(params).toString()}`,
    as === undefined ? {} : { as },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expectShape(collectionShape, response.body);
  return (response.body as z.infer<typeof collectionShape>).aggregations;
}

async function aggregatePost(path: string, body: Record<string, unknown>): Promise<Aggregation[]> {
  const response = await call('POST', path, { body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expectShape(collectionShape, response.body);
  return (response.body as z.infer<typeof collectionShape>).aggregations;
}

/** The ids the search itself answers for the same parameters: what the aggregation must count. */
async function searched(params: Params, path = '/api/v1/stac/search'): Promise<SpecItem[]> {
  const query = new URLSearchParams({ ...params, limit: '100' }).toString();
  const { ids: found } = await pageToEnd({ method: 'GET', path: `${path}?${query}` });
  return items.filter((item) => found.includes(item.id));
}

const DEFAULTS: Options = { interval: 'month', geohash: 1, geotile: 0 };

/** The search parameters each case adds to the scope of this file's items. */
const cases: readonly { name: string; params: Params; keep: (item: SpecItem) => boolean }[] = [
  { name: 'ids alone', params: {}, keep: () => true },
  {
    name: 'bbox',
    params: { bbox: '-100,-50,60,70' },
    keep: (item) => {
      const [w, s, e, n] = item.bbox ?? [];
      return (
        item.bbox !== undefined &&
        (w as number) <= 60 &&
        (e as number) >= -100 &&
        (s as number) <= 70 &&
        (n as number) >= -50
      );
    },
  },
  {
    name: 'datetime',
    params: { datetime: '2021-01-01T00:00:00Z/2021-12-31T23:59:59Z' },
    keep: (item) =>
      startOf(item) <= Date.parse('2021-12-31T23:59:59Z') &&
      endOf(item) >= Date.parse('2021-01-01T00:00:00Z'),
  },
  {
    name: 'filter',
    params: { filter: 'n >= 10 AND n < 30' },
    keep: (item) => (item.properties.n as number) >= 10 && (item.properties.n as number) < 30,
  },
  {
    name: 'query',
    params: { query: JSON.stringify({ n: { lt: 12 } }) },
    keep: (item) => (item.properties.n as number) < 12,
  },
  {
    name: 'q',
    params: { q: 'even' },
    keep: (item) => String(item.properties.title).includes('even'),
  },
  {
    name: 'intersects',
    params: {
      intersects: JSON.stringify({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [180, 0],
            [180, 90],
            [0, 90],
            [0, 0],
          ],
        ],
      }),
    },
    keep: (item) => {
      const [w, s, e, n] = item.bbox ?? [];
      return (
        item.bbox !== undefined &&
        (e as number) >= 0 &&
        (w as number) <= 180 &&
        (n as number) >= 0 &&
        (s as number) <= 90
      );
    },
  },
];

describe('aggregate', () => {
  it.each(cases)(
    'computes every aggregation as the brute force does: $name (GET and POST)',
    async ({ params, keep }) => {
      const scoped = { ids: ids.join(','), ...params };
      const expectedItems = items.filter(keep);
      // The brute force's own reading of the parameter agrees with the search's.
      expect((await searched(scoped)).map((item) => item.id).sort()).toEqual(
        expectedItems.map((item) => item.id).sort(),
      );
      const expected = bruteForce(expectedItems, DEFAULTS);
      expect(await aggregateGet('/api/v1/stac/aggregate', scoped)).toEqual(expected);
      const body: Record<string, unknown> = { ids, aggregations: ALL };
      for (const [name, value] of Object.entries(params)) {
        body[name] =
          name === 'bbox'
            ? value.split(',').map(Number)
            : name === 'intersects' || name === 'query'
              ? JSON.parse(value)
              : value;
      }
      expect(await aggregatePost('/api/v1/stac/aggregate', body)).toEqual(expected);
    },
  );

  it('counts a collection (its own path and the collections parameter alike)', async () => {
    const own = items.filter((item) => item.collection === collectionA);
    const expected = bruteForce(own, DEFAULTS);
    expect(await aggregateGet(`/api/v1/stac/collections/${collectionA}/aggregate`, {})).toEqual(expected);
    expect(await aggregateGet('/api/v1/stac/aggregate', { collections: collectionA.toUpperCase() })).toEqual(
      expected,
    );
    const both = items.filter((item) => item.collection !== undefined);
    expect(
      await aggregatePost('/api/v1/stac/aggregate', { collections: [collectionA, collectionB] }),
    ).toEqual(bruteForce(both, DEFAULTS));
    const ranged = own.filter((item) => endOf(item) >= Date.parse('2021-06-01T00:00:00Z'));
    expect(
      await aggregatePost(`/api/v1/stac/collections/${collectionA}/aggregate`, {
        datetime: '2021-06-01T00:00:00Z/..',
      }),
    ).toEqual(bruteForce(ranged, DEFAULTS));
  });

  it.each(INTERVALS)('buckets datetime_frequency by %s', async (interval) => {
    const got = await aggregateGet('/api/v1/stac/aggregate', {
      ids: ids.join(','),
      aggregations: 'datetime_frequency',
      datetime_frequency_interval: interval,
    });
    const expected = bruteForce(items, { ...DEFAULTS, interval }).find(
      (a) => a.name === 'datetime_frequency',
    );
    expect(got).toEqual([expected]);
  });

  it('buckets centroids by geohash and tile at several precisions', async () => {
    for (const precision of [1, 2, 3, 5, 8]) {
      const got = await aggregatePost('/api/v1/stac/aggregate', {
        ids,
        aggregations: ['centroid_geohash_grid_frequency'],
        centroid_geohash_grid_frequency_precision: precision,
      });
      const expected = bruteForce(items, { ...DEFAULTS, geohash: precision });
      expect(got).toEqual(expected.filter((a) => a.name === 'centroid_geohash_grid_frequency'));
    }
    for (const zoom of [0, 1, 2, 4, 7, 12]) {
      const got = await aggregateGet('/api/v1/stac/aggregate', {
        ids: ids.join(','),
        aggregations: 'centroid_geotile_grid_frequency',
        centroid_geotile_grid_frequency_precision: String(zoom),
      });
      const expected = bruteForce(items, { ...DEFAULTS, geotile: zoom });
      expect(got).toEqual(expected.filter((a) => a.name === 'centroid_geotile_grid_frequency'));
    }
  });

  it('answers only the aggregations asked for, in the order asked', async () => {
    const got = await aggregateGet('/api/v1/stac/aggregate', {
      ids: ids.join(','),
      aggregations: 'datetime_max,total_count',
    });
    const expected = bruteForce(items, DEFAULTS);
    expect(got).toEqual([expected[2], expected[0]]);
  });

  it('counts only what the caller may read', async () => {
    const visible = items.filter((item) => item.id !== privateId);
    const got = await aggregateGet('/api/v1/stac/aggregate', { ids: ids.join(',') }, 'anonymous');
    expect(got).toEqual(bruteForce(visible, DEFAULTS));
    expect(got[0]?.value).toBe(ids.length - 1);
  });

  it('a session cookie alone may POST an aggregate (it only reads: no CSRF token)', async () => {
    const user = await signUp({ name: 'Aggregation cookie' });
    for (const path of ['/api/v1/stac/aggregate', `/api/v1/stac/collections/${collectionA}/aggregate`]) {
      const response = await call('POST', path, {
        headers: { cookie: user.cookie },
        body: { ids, aggregations: ['total_count'] },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
  });

  it('counts nothing for ids that name no item', async () => {
    const got = await aggregateGet('/api/v1/stac/aggregate', { ids: 'not-a-uuid' });
    expect(got).toEqual(bruteForce([], DEFAULTS));
  });
});

describe('aggregations', () => {
  it('lists every aggregation at the root and per collection, and the landing page and collection link them', async () => {
    for (const path of [
      '/api/v1/stac/aggregations',
      `/api/v1/stac/collections/${collectionA}/aggregations`,
    ]) {
      const listed = await call<{ aggregations: { name: string; data_type: string }[] }>('GET', path);
      expect(listed.status).toBe(200);
      expect(listed.body.aggregations.map((a) => a.name)).toEqual(ALL);
    }
    const landing = await call<{ links: { rel: string; href: string; method?: string }[] }>(
      'GET',
      '/api/v1/stac',
    );
    expect(landing.body.links.filter((l) => l.rel === 'aggregate').map((l) => l.method)).toEqual([
      'GET',
      'POST',
    ]);
    expect(landing.body.links.find((l) => l.rel === 'aggregations')?.href).toMatch(
      /\/api\/v1\/stac\/aggregations$/,
    );
    const collection = await call<{ links: { rel: string; href: string }[] }>(
      'GET',
      `/api/v1/stac/collections/${collectionA}`,
    );
    expect(collection.body.links.find((l) => l.rel === 'aggregate')?.href).toMatch(
      new RegExp(`/collections/${collectionA}/aggregate$`),
    );
    const conformance = await call<{ conformsTo: string[] }>('GET', '/api/v1/stac/conformance');
    expect(conformance.body.conformsTo).toEqual(
      expect.arrayContaining([
        'https://api.stacspec.org/v0.3.0/aggregation',
        'https://api.stacspec.org/v0.3.0/aggregation#filter',
        'https://api.stacspec.org/v0.3.0/aggregation#query',
      ]),
    );
  });

  it('answers 404 for a collection that does not exist', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await call('GET', `/api/v1/stac/collections/${missing}/aggregations`)).status).toBe(404);
    expect((await call('GET', `/api/v1/stac/collections/${missing}/aggregate`)).status).toBe(404);
  });
});

describe('bad parameters', () => {
  const bad: readonly [string, string, Record<string, unknown> | null][] = [
    ['/api/v1/stac/aggregate?aggregations=total_count,nope', 'aggregations:', null],
    ['/api/v1/stac/aggregate?aggregations=', 'aggregations:', null],
    ['/api/v1/stac/aggregate?datetime_frequency_interval=fortnight', 'datetime_frequency_interval:', null],
    [
      '/api/v1/stac/aggregate?centroid_geohash_grid_frequency_precision=0',
      'centroid_geohash_grid_frequency_precision:',
      null,
    ],
    [
      '/api/v1/stac/aggregate?centroid_geohash_grid_frequency_precision=13',
      'centroid_geohash_grid_frequency_precision:',
      null,
    ],
    [
      '/api/v1/stac/aggregate?centroid_geotile_grid_frequency_precision=30',
      'centroid_geotile_grid_frequency_precision:',
      null,
    ],
    [
      '/api/v1/stac/aggregate?centroid_geotile_grid_frequency_precision=1.5',
      'centroid_geotile_grid_frequency_precision:',
      null,
    ],
    ['/api/v1/stac/aggregate?limit=10', 'invalid query', null],
    ['/api/v1/stac/aggregate?sortby=id', 'invalid query', null],
    ['/api/v1/stac/aggregate?bbox=1,2,3', 'bbox:', null],
    ['/api/v1/stac/aggregate?filter=n%20%3E', 'filter:', null],
    ['/api/v1/stac/aggregate?collections=00000000-0000-4000-8000-000000000000', 'collections:', null],
    [
      '/api/v1/stac/aggregate',
      'centroid_geotile_grid_frequency_precision:',
      { centroid_geotile_grid_frequency_precision: -1 },
    ],
    ['/api/v1/stac/aggregate', 'invalid body', { aggregations: [1] }],
    ['/api/v1/stac/aggregate', 'invalid body', { token: 'x' }],
  ];
  it.each(bad)('%s answers 400 (%s)', async (path, message, body) => {
    const response = await call(body === null ? 'GET' : 'POST', path, body === null ? {} : { body });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expectShape(specError, response.body);
    expect((response.body as { message: string }).message).toContain(message);
  });

  it('refuses collections under a collection path', async () => {
    const get = await call(
      'GET',
      `/api/v1/stac/collections/${collectionA}/aggregate?collections=${collectionB}`,
    );
    expect(get.status).toBe(400);
    const post = await call('POST', `/api/v1/stac/collections/${collectionA}/aggregate`, {
      body: { collections: [collectionB] },
    });
    expect(post.status).toBe(400);
    expectShape(specError, post.body);
  });
});
