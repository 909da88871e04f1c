import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { createPortalObject, random, splitBox, type Box } from './support/stac-fixture.js';
import { expectShape, specCollection, specError } from './support/stac-schemas.js';

/**
 * The collection search extension on `GET /collections` (bbox, datetime, q) against a brute-force
 * reading of each collection's STAC JSON: its extent's boxes and intervals (given on create, or
 * computed: the whole world from its creation, open-ended, before any ready item) and the words of its
 * title, description and keywords. Pages are followed to the end, two collections at a time, so `next`
 * must keep the parameters. The stack is shared: this file's collections must be exactly the expected
 * ones among those returned, and every collection returned (any file's) must meet the search.
 */

useSignedInCaller();

const WORDS = ['glacier', 'tundra', 'monsoon', 'savanna', 'fjord', 'steppe'] as const;

interface SeenCollection {
  readonly id: string;
  readonly title?: string;
  readonly description: string;
  readonly keywords?: string[];
  readonly extent: {
    spatial: { bbox: number[][] };
    temporal: { interval: [string | null, string | null][] };
  };
}

let mine: SeenCollection[] = [];

function randomExtent(next: () => number, n: number) {
  const box = (): Box => {
    const south = Math.round(next() * 140 - 70);
    const north = Math.min(90, south + 1 + Math.round(next() * 20));
    if (next() < 0.2) return [170 + Math.round(next() * 9), south, -179 + Math.round(next() * 9), north];
    const west = Math.round(next() * 320 - 170);
    return [west, south, Math.min(180, west + 1 + Math.round(next() * 30)), north];
  };
  const instant = () => new Date(Date.UTC(2015, 0, 1) + Math.floor(next() * 10 * 365) * 86_400_000);
  const interval = (): [string, string | null] => {
    const start = instant();
    const end = next() < 0.25 ? null : new Date(start.getTime() + Math.floor(next() * 700) * 86_400_000);
    return [start.toISOString(), end === null ? null : end.toISOString()];
  };
  return {
    spatial: { bbox: Array.from({ length: 1 + (n % 3) }, box) },
    temporal: { interval: Array.from({ length: 1 + (n % 2) }, interval) },
  };
}

beforeAll(async () => {
  const next = random(2026_05);
  const parent = await createPortalObject('catalogs', { title: 'Collection search catalog' });
  const pick = () => WORDS[Math.floor(next() * WORDS.length)] as string;
  const ids: string[] = [];
  for (let n = 0; n < 14; n += 1) {
    ids.push(
      await createPortalObject('collections', {
        title: `${pick()} survey ${n}`,
        description: `A ${pick()} collection`,
        parentId: parent,
        keywords: n % 3 === 0 ? [pick(), 'wet season'] : [],
        // Two collections give no extent: theirs is computed (no ready item: the whole world, from now).
        ...(n < 12 ? { extent: randomExtent(next, n) } : {}),
      }),
    );
  }
  mine = [];
  for (const id of ids) {
    const answer = await call<SeenCollection>('GET', `/api/v1/stac/collections/${id}`);
    expect(answer.status).toBe(200);
    mine.push(answer.body);
  }
}, 120_000);

type WordRule = (has: (phrase: string) => boolean) => boolean;

interface Criteria {
  readonly box?: Box;
  readonly start?: string | null;
  readonly end?: string | null;
  readonly has?: WordRule;
}

const overlaps = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

function wordsOf(collection: SeenCollection): string[] {
  const text = [collection.title ?? '', collection.description, ...(collection.keywords ?? [])].join(' ');
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

function meets(collection: SeenCollection, criteria: Criteria): boolean {
  if (criteria.box !== undefined) {
    const wanted = splitBox(criteria.box);
    const any = collection.extent.spatial.bbox.some((box) =>
      splitBox(box as unknown as Box).some((part) => wanted.some((other) => overlaps(part, other))),
    );
    if (!any) return false;
  }
  if (criteria.start !== undefined || criteria.end !== undefined) {
    const a = criteria.start == null ? -Infinity : Date.parse(criteria.start);
    const b = criteria.end == null ? Infinity : Date.parse(criteria.end);
    const any = collection.extent.temporal.interval.some(([start, end]) => {
      const s = start === null ? -Infinity : Date.parse(start);
      const e = end === null ? Infinity : Date.parse(end);
      return s <= b && e >= a;
    });
    if (!any) return false;
  }
  if (criteria.has !== undefined) {
    const words = wordsOf(collection);
    const holds = (phrase: string) => {
      const wanted = phrase.split(' ');
      return words.some((_, at) => wanted.every((word, offset) => words[at + offset] === word));
    };
    if (!criteria.has(holds)) return false;
  }
  return true;
}

/** Every collection of the search, following `next` to the end. */
async function searchCollections(query: Record<string, string>): Promise<SeenCollection[]> {
  const found: SeenCollection[] = [];
  let path: string | null =
    `/api/v1/stac/collections?${new URLSearchParams({ limit: '2', ...query }).toString()}`;
  for (let pages = 0; path !== null; pages += 1) {
    if (pages > 500) throw new Error('the paging does not end');
    const answer: {
      status: number;
      body: { collections: SeenCollection[]; links: { rel: string; href: string }[] };
    } = await call('GET', path);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    for (const collection of answer.body.collections) expectShape(specCollection, collection);
    found.push(...answer.body.collections);
    const next = answer.body.links.find((link) => link.rel === 'next');
    path = next === undefined ? null : new URL(next.href).pathname + new URL(next.href).search;
  }
  expect(new Set(found.map((collection) => collection.id)).size).toBe(found.length);
  return found;
}

async function expectSearch(query: Record<string, string>, criteria: Criteria): Promise<number> {
  const found = await searchCollections(query);
  for (const collection of found) expect(meets(collection, criteria), collection.id).toBe(true);
  const mineIds = new Set(mine.map((collection) => collection.id));
  const want = mine.filter((collection) => meets(collection, criteria)).map((collection) => collection.id);
  expect(new Set(found.filter((collection) => mineIds.has(collection.id)).map((c) => c.id))).toEqual(
    new Set(want),
  );
  return want.length;
}

describe('collection search: bbox, datetime and q against brute force', () => {
  it('bbox: boxes anywhere, several boxes per collection, across the antimeridian', async () => {
    const boxes: Box[] = [
      [-30, -40, 60, 40],
      [0, 0, 10, 10],
      [165, -60, -165, 60],
      [100, 50, 120, 60],
      [-180, -90, 180, 90],
    ];
    const sizes: number[] = [];
    for (const box of boxes) sizes.push(await expectSearch({ bbox: box.join(',') }, { box }));
    // The computed extents are the whole world: every bbox finds those two at least.
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2);
    expect(sizes.some((size) => size > 2 && size < mine.length)).toBe(true);
  });

  it('datetime: instants, closed and open intervals, against open-ended extents too', async () => {
    const cases: [string, string | null, string | null][] = [
      ['2018-01-01T00:00:00Z/2019-01-01T00:00:00Z', '2018-01-01T00:00:00Z', '2019-01-01T00:00:00Z'],
      ['../2016-06-01T00:00:00Z', null, '2016-06-01T00:00:00Z'],
      ['2023-01-01T00:00:00Z/..', '2023-01-01T00:00:00Z', null],
      ['2020-02-29T12:00:00Z', '2020-02-29T12:00:00Z', '2020-02-29T12:00:00Z'],
    ];
    const sizes: number[] = [];
    for (const [datetime, start, end] of cases) {
      sizes.push(await expectSearch({ datetime }, { start, end }));
    }
    expect(sizes.some((size) => size > 0 && size < mine.length)).toBe(true);
  });

  it('q: words, phrases, OR, AND and signs in the title, description and keywords', async () => {
    const cases: [string, WordRule][] = [
      ['glacier', (has) => has('glacier')],
      ['GLACIER tundra', (has) => has('glacier') || has('tundra')],
      ['monsoon AND collection', (has) => has('monsoon') && has('collection')],
      ['"wet season"', (has) => has('wet season')],
      ['+survey -fjord', (has) => has('survey') && !has('fjord')],
    ];
    const sizes: number[] = [];
    for (const [q, has] of cases) sizes.push(await expectSearch({ q }, { has }));
    expect(sizes.filter((size) => size > 0 && size < mine.length).length).toBeGreaterThanOrEqual(4);
  });

  it('all three together', async () => {
    const box: Box = [-120, -60, 120, 60];
    await expectSearch(
      { bbox: box.join(','), datetime: '2016-01-01T00:00:00Z/2022-01-01T00:00:00Z', q: 'survey -steppe' },
      {
        box,
        start: '2016-01-01T00:00:00Z',
        end: '2022-01-01T00:00:00Z',
        has: (has) => has('survey') && !has('steppe'),
      },
    );
  });
});

describe('collection search: errors and conformance', () => {
  it('bad values answer 400 naming the parameter; parameters it does not take too', async () => {
    const cases: [string, RegExp][] = [
      ['bbox=1,2,3', /bbox/],
      ['bbox=0,10,1,5', /bbox/],
      ['datetime=yesterday', /datetime/],
      ['datetime=../..', /datetime/],
      ['q=%22open', /^q: /],
      ['q=', /^q: /],
      ['collections=x', /collections/],
      ['ids=a', /ids/],
    ];
    for (const [query, message] of cases) {
      const answer = await call<{ message: string }>('GET', `/api/v1/stac/collections?${query}`);
      expect(answer.status, query).toBe(400);
      expectShape(specError, answer.body);
      expect(answer.body.message, query).toMatch(message);
    }
  });

  it('conformance declares collection search with its simple query and free text', async () => {
    const { body } = await call<{ conformsTo: string[] }>('GET', '/api/v1/stac/conformance');
    expect(body.conformsTo).toEqual(
      expect.arrayContaining([
        'https://api.stacspec.org/v1.0.0-rc.1/collection-search',
        'http://www.opengis.net/spec/ogcapi-common-2/1.0/conf/simple-query',
        'https://api.stacspec.org/v1.0.0-rc.1/collection-search#advanced-free-text',
      ]),
    );
  });
});
