import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import {
  createPortalObject,
  expected,
  pageToEnd,
  random,
  splitBox,
  type Box,
  type Criteria,
  type FixtureItem,
} from './support/stac-fixture.js';
import { expectShape, specError, specItem, type SpecItemCollection } from './support/stac-schemas.js';

/**
 * STAC item search against a brute-force evaluation of the same search over the same items in memory:
 * a small portal (a catalog holding two collections and three items of its own) with footprints all
 * over the globe, some across the antimeridian, instants and ranges over five years. Every comparison
 * pages to the end with a small limit, so paging (no repeats, no gaps, GET and POST) is checked too.
 * Searches name this file's collections (the stack is shared); the catalog's own items by their ids.
 */

useSignedInCaller();

const items: FixtureItem[] = [];
let collectionA = '';
let collectionB = '';
let catalog = '';

const YEAR_MS = 365 * 24 * 3600 * 1000;
const T0 = Date.parse('2020-01-01T00:00:00Z');

function randomBox(next: () => number): Box {
  const south = Math.round((next() * 160 - 80) * 100) / 100;
  const north = Math.min(90, Math.round((south + next() * 20) * 100) / 100);
  // One box in five crosses the antimeridian.
  if (next() < 0.2) {
    const west = Math.round((170 + next() * 9) * 100) / 100;
    return [west, south, Math.round((-179 + next() * 9) * 100) / 100, north];
  }
  const west = Math.round((next() * 340 - 180) * 100) / 100;
  return [west, south, Math.min(180, Math.round((west + next() * 30) * 100) / 100), north];
}

const rectangle = ([west, south, east, north]: Box) => ({
  type: 'Polygon',
  coordinates: [
    [
      [west, south],
      [east, south],
      [east, north],
      [west, north],
      [west, south],
    ],
  ],
});

/** One item: a bbox, a rectangle geometry or a point; an instant or a range. */
async function createFixtureItem(next: () => number, parentId: string, collection: string | null, n: number) {
  const box = randomBox(next);
  const shape = next();
  const start = new Date(T0 + Math.floor(next() * 5 * YEAR_MS)).toISOString();
  const isRange = next() < 0.4;
  const end = isRange ? new Date(Date.parse(start) + Math.floor(next() * YEAR_MS)).toISOString() : start;
  const time = isRange ? { start_datetime: start, end_datetime: end } : { datetime: start };
  let footprint: Record<string, unknown>;
  let rects: Box[];
  if (shape < 0.4 || box[0] > box[2]) {
    footprint = { bbox: box };
    rects = splitBox(box);
  } else if (shape < 0.8) {
    footprint = { geometry: rectangle(box) };
    rects = [box];
  } else {
    footprint = { geometry: { type: 'Point', coordinates: [box[0], box[1]] } };
    rects = [[box[0], box[1], box[0], box[1]]];
  }
  const id = await createPortalObject('items', {
    title: `Scene ${n}`,
    parentId,
    ...footprint,
    ...time,
    properties: { 'eo:cloud_cover': Math.round(next() * 100), platform: 'test-sat', n },
  });
  items.push({ id, collection, rects, start, end });
}

beforeAll(async () => {
  const next = random(20240101);
  catalog = await createPortalObject('catalogs', { title: 'STAC search catalog' });
  collectionA = await createPortalObject('collections', { title: 'STAC search A', parentId: catalog });
  collectionB = await createPortalObject('collections', { title: 'STAC search B', parentId: catalog });
  const plan: [string, string | null][] = [
    ...Array.from({ length: 14 }, () => [collectionA, collectionA] as [string, string]),
    ...Array.from({ length: 14 }, () => [collectionB, collectionB] as [string, string]),
    ...Array.from({ length: 3 }, () => [catalog, null] as [string, null]),
  ];
  // A few at a time: the order of creation must not decide the order of results anyway.
  for (let index = 0; index < plan.length; index += 8) {
    const chunk = plan.slice(index, index + 8);
    // The generator is drawn in a fixed order before any request, so the fixture is the same every run.
    const draws = chunk.map(() => {
      const values = Array.from({ length: 12 }, () => next());
      let at = 0;
      return () => values[at++ % values.length] ?? 0;
    });
    await Promise.all(
      chunk.map(([parent, collection], offset) =>
        createFixtureItem(draws[offset] ?? next, parent, collection, index + offset),
      ),
    );
  }
}, 120_000);

const both = () => [collectionA, collectionB];
const mine = () => items.filter((item) => item.collection !== null);

/** The same search by GET (query string) and by POST (body), both paged to the end with `limit`. */
async function searchBothWays(get: Record<string, string>, post: Record<string, unknown>) {
  const query = new URLSearchParams(get).toString();
  const byGet = await pageToEnd({ method: 'GET', path: `/api/v1/stac/search?${query}` });
  const byPost = await pageToEnd({ method: 'POST', path: '/api/v1/stac/search', body: post });
  return { get: byGet.ids, post: byPost.ids, pages: byGet.pages };
}

async function expectSearch(criteria: Criteria, get: Record<string, string>, post: Record<string, unknown>) {
  const want = expected(items, criteria);
  const found = await searchBothWays({ limit: '3', ...get }, { limit: 3, ...post });
  expect(found.get).toEqual(want);
  expect(found.post).toEqual(want);
  return want;
}

describe('item search against a brute-force filter', () => {
  it('collections alone: every item of both, newest first, paged by 3 without repeats or gaps', async () => {
    const want = await expectSearch(
      { collections: both() },
      { collections: both().join(',') },
      { collections: both() },
    );
    expect(want).toHaveLength(28);
  });

  it('collections as a single string in a POST body', async () => {
    const want = expected(items, { collections: [collectionA] });
    const { ids } = await pageToEnd({
      method: 'POST',
      path: '/api/v1/stac/search',
      body: { collections: collectionA, limit: 4 },
    });
    expect(ids).toEqual(want);
    const list = await pageToEnd({
      method: 'POST',
      path: '/api/v1/stac/search',
      body: { collections: both().join(','), limit: 50 },
    });
    expect(list.ids).toEqual(expected(items, { collections: both() }));
  });

  it('bbox, several boxes, across the antimeridian too', async () => {
    const boxes: Box[] = [
      [-30, -40, 60, 40],
      [0, 0, 10, 10],
      [-180, -90, 180, 90],
      [160, -80, -160, 80],
      [175, -90, -175, 90],
      [100, 50, 120, 60],
    ];
    let nonEmpty = 0;
    for (const box of boxes) {
      const want = await expectSearch(
        { collections: both(), boxes: [box] },
        { collections: both().join(','), bbox: box.join(',') },
        { collections: both(), bbox: [...box] },
      );
      if (want.length > 0 && want.length < 28) nonEmpty += 1;
    }
    // The boxes must discriminate, or the comparison proves nothing.
    expect(nonEmpty).toBeGreaterThanOrEqual(2);
  });

  it('bbox of six numbers (with heights)', async () => {
    const box: Box = [-30, -40, 60, 40];
    await expectSearch(
      { collections: both(), boxes: [box] },
      { collections: both().join(','), bbox: '-30,-40,-100,60,40,1000' },
      { collections: both(), bbox: [-30, -40, -100, 60, 40, 1000] },
    );
  });

  it('intersects with rectangles (both sides of the antimeridian as a MultiPolygon)', async () => {
    const box: Box = [-20, -30, 50, 45];
    const geometry = {
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
    };
    await expectSearch(
      { collections: both(), boxes: [box] },
      { collections: both().join(','), intersects: JSON.stringify(geometry) },
      { collections: both(), intersects: geometry },
    );
    const multi = {
      type: 'MultiPolygon',
      coordinates: splitBox([165, -60, -165, 60]).map(([w, s, e, n]) => [
        [
          [w, s],
          [e, s],
          [e, n],
          [w, n],
          [w, s],
        ],
      ]),
    };
    await expectSearch(
      { collections: both(), boxes: [[165, -60, -165, 60]] },
      { collections: both().join(','), intersects: JSON.stringify(multi) },
      { collections: both(), intersects: multi },
    );
  });

  it('intersects with a point and a line (any GeoJSON geometry)', async () => {
    const target = mine().find((item) => item.rects[0] && item.rects[0][0] < item.rects[0][2]);
    const rect = target?.rects[0];
    if (!target || !rect) throw new Error('the fixture has no item with an area');
    const point = { type: 'Point', coordinates: [(rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2] };
    const center: Box = [
      point.coordinates[0] ?? 0,
      point.coordinates[1] ?? 0,
      point.coordinates[0] ?? 0,
      point.coordinates[1] ?? 0,
    ];
    const want = await expectSearch(
      { collections: both(), boxes: [center] },
      { collections: both().join(','), intersects: JSON.stringify(point) },
      { collections: both(), intersects: point },
    );
    expect(want).toContain(target.id);
    const line = {
      type: 'LineString',
      coordinates: [
        [-179, 0],
        [179, 0],
      ],
    };
    await expectSearch(
      { collections: both(), boxes: [[-179, 0, 179, 0]] },
      { collections: both().join(','), intersects: JSON.stringify(line) },
      { collections: both(), intersects: line },
    );
  });

  it('datetime: instants, closed and open intervals', async () => {
    const exact = mine()[3];
    if (!exact) throw new Error('no fixture item');
    const cases: [string, string | null, string | null][] = [
      [exact.start, exact.start, exact.start],
      ['2021-01-01T00:00:00Z/2022-06-30T23:59:59Z', '2021-01-01T00:00:00Z', '2022-06-30T23:59:59Z'],
      ['../2021-03-01T00:00:00Z', null, '2021-03-01T00:00:00Z'],
      ['2023-05-01T00:00:00Z/..', '2023-05-01T00:00:00Z', null],
      ['/2021-03-01T00:00:00Z', null, '2021-03-01T00:00:00Z'],
      ['2022-01-01T01:00:00+01:00/2022-12-31T00:00:00Z', '2022-01-01T00:00:00Z', '2022-12-31T00:00:00Z'],
    ];
    for (const [datetime, start, end] of cases) {
      const want = await expectSearch(
        { collections: both(), start, end },
        { collections: both().join(','), datetime },
        { collections: both(), datetime },
      );
      expect(want.length).toBeGreaterThan(0);
    }
  });

  it('ids, alone and with other parameters; ids of no item match nothing', async () => {
    const chosen = [...items.slice(0, 5), ...items.slice(-2)].map((item) => item.id);
    await expectSearch({ ids: chosen }, { ids: chosen.join(',') }, { ids: chosen });
    const box: Box = [-180, -90, 0, 90];
    await expectSearch(
      { ids: chosen, boxes: [box], collections: [collectionA] },
      { ids: chosen.join(','), bbox: box.join(','), collections: collectionA },
      { ids: chosen, bbox: [...box], collections: [collectionA] },
    );
    await expectSearch(
      { ids: [] },
      { ids: 'not-an-item,00000000-0000-4000-8000-000000000000' },
      { ids: ['not-an-item'] },
    );
  });

  it('every parameter at once', async () => {
    const box: Box = [-100, -60, 100, 60];
    const want = await expectSearch(
      {
        collections: [collectionB],
        boxes: [box],
        start: '2020-06-01T00:00:00Z',
        end: '2024-06-01T00:00:00Z',
      },
      {
        collections: collectionB,
        bbox: box.join(','),
        datetime: '2020-06-01T00:00:00Z/2024-06-01T00:00:00Z',
      },
      { collections: [collectionB], bbox: [...box], datetime: '2020-06-01T00:00:00Z/2024-06-01T00:00:00Z' },
    );
    expect(want.length).toBeGreaterThan(0);
  });

  it('items directly under a catalog are searchable and belong to no collection', async () => {
    const own = items.filter((item) => item.collection === null);
    const ids = own.map((item) => item.id);
    const found = await searchBothWays({ ids: ids.join(',') }, { ids });
    expect(found.get).toEqual(expected(items, { ids }));
    for (const feature of found.pages.flatMap((page) => page.features)) {
      expect(feature.collection).toBeUndefined();
      expect(feature.links.find((link) => link.rel === 'parent')?.href).toMatch(
        new RegExp(`/api/v1/stac/catalogs/${catalog}$`),
      );
      const self = feature.links.find((link) => link.rel === 'self')?.href ?? '';
      const read = await call('GET', new URL(self).pathname);
      expect(read.status).toBe(200);
      expectShape(specItem, read.body);
    }
  });
});

describe("a collection's items (OGC API Features)", () => {
  it('pages to the end, bbox and datetime filter like the search', async () => {
    const box: Box = [-120, -70, 120, 70];
    const pages = await pageToEnd({
      method: 'GET',
      path: `/api/v1/stac/collections/${collectionA}/items?limit=2&bbox=${box.join(',')}&datetime=../2023-01-01T00:00:00Z`,
    });
    expect(pages.ids).toEqual(
      expected(items, { collections: [collectionA], boxes: [box], end: '2023-01-01T00:00:00Z' }),
    );
    const all = await pageToEnd({
      method: 'GET',
      path: `/api/v1/stac/collections/${collectionA}/items?limit=5`,
    });
    expect(all.ids).toEqual(expected(items, { collections: [collectionA] }));
    for (const page of all.pages) {
      expect(page.links.find((link) => link.rel === 'collection')?.href).toMatch(
        new RegExp(`/collections/${collectionA}$`),
      );
    }
  });

  it('one item, through its collection; another collection does not hold it (404)', async () => {
    const item = items.find((candidate) => candidate.collection === collectionA);
    if (!item) throw new Error('no fixture item');
    const read = await call<SpecItemCollection['features'][number]>(
      'GET',
      `/api/v1/stac/collections/${collectionA}/items/${item.id}`,
    );
    expect(read.status).toBe(200);
    expectShape(specItem, read.body);
    expect(read.body.collection).toBe(collectionA);
    // Properties keep what the portal stored, JSON types included.
    expect(read.body.properties.platform).toBe('test-sat');
    expect(typeof read.body.properties['eo:cloud_cover']).toBe('number');
    const elsewhere = await call('GET', `/api/v1/stac/collections/${collectionB}/items/${item.id}`);
    expect(elsewhere.status).toBe(404);
    expectShape(specError, elsewhere.body);
  });
});
