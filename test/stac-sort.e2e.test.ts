import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { seedExtensionFixture, type ExtensionFixture } from './support/stac-extension-fixture.js';
import { pageToEnd } from './support/stac-fixture.js';
import { expectShape, specError, type SpecItem } from './support/stac-schemas.js';

/**
 * The sort extension against a brute-force sort of the same items' STAC JSON: each `sortby` runs by GET
 * and by POST, paged to the end three items at a time, so page boundaries fall inside ties (of times,
 * titles, numbers, NULLs) and the keyset token must continue exactly after the last item: no repeat, no
 * gap, the whole order as the brute force has it.
 */

useSignedInCaller();

let fixture: ExtensionFixture;

beforeAll(async () => {
  fixture = await seedExtensionFixture(2026_01);
}, 180_000);

type Direction = 'asc' | 'desc';
type Key = string | number | boolean | null;

/** A key's value as the item shows it; NULL where the extension sorts nothing (missing, object, array). */
function keyOf(item: SpecItem, field: string): Key {
  const properties = item.properties as Record<string, unknown>;
  const name = field.startsWith('properties.') ? field.slice('properties.'.length) : field;
  switch (name) {
    case 'id':
      return item.id;
    case 'collection':
      return item.collection ?? null;
    case 'datetime':
    case 'start_datetime':
      return Date.parse((properties.datetime ?? properties.start_datetime) as string);
    case 'end_datetime':
      return Date.parse((properties.datetime ?? properties.end_datetime) as string);
    case 'created':
    case 'updated':
      return Date.parse(properties[name] as string);
    default: {
      const value = properties[name];
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? value
        : null;
    }
  }
}

/** PostgreSQL's order of sortable values: strings, then numbers, then booleans; NULL after everything. */
const rank = (value: Key) =>
  value === null ? 3 : typeof value === 'string' ? 0 : typeof value === 'number' ? 1 : 2;

function compareKeys(a: Key, b: Key): number {
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (a === null || b === null) return 0;
  if (typeof a === 'string' && typeof b === 'string') {
    // The database's collation is C.UTF-8: code point order, which this is for the fixture's text.
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return Number(a) - Number(b);
}

/** The brute-force order: every term in turn, then the id in the first term's direction. */
function bruteForce(items: readonly SpecItem[], terms: readonly [string, Direction][]): string[] {
  const [first] = terms;
  const withId: [string, Direction][] = terms.some(([field]) => field === 'id')
    ? [...terms]
    : [...terms, ['id', first?.[1] ?? 'desc']];
  return [...items]
    .sort((a, b) => {
      for (const [field, direction] of withId) {
        const order = compareKeys(keyOf(a, field), keyOf(b, field));
        if (order !== 0) return direction === 'asc' ? order : -order;
      }
      return 0;
    })
    .map((item) => item.id);
}

const sortbyText = (terms: readonly [string, Direction][]) =>
  terms.map(([field, direction]) => `${direction === 'desc' ? '-' : '%2B'}${field}`).join(',');

/** One sort by GET (`?sortby=`) and by POST (`sortby: [{field, direction}]`), both paged by three. */
async function sortedBothWays(terms: readonly [string, Direction][]) {
  const ids = fixture.ids.join(',');
  const byGet = await pageToEnd({
    method: 'GET',
    path: `/api/v1/stac/search?ids=${ids}&limit=3&sortby=${sortbyText(terms)}`,
  });
  const byPost = await pageToEnd({
    method: 'POST',
    path: '/api/v1/stac/search',
    body: {
      ids: fixture.ids,
      limit: 3,
      sortby: terms.map(([field, direction]) => ({ field, direction })),
    },
  });
  return { get: byGet.ids, post: byPost.ids };
}

describe('sort: every sortable field, both ways, paged across ties', () => {
  const cases: [string, [string, Direction][]][] = [
    ['datetime ascending', [['properties.datetime', 'asc']]],
    ['datetime descending (the default order, spelt out)', [['datetime', 'desc']]],
    ['start_datetime ascending', [['properties.start_datetime', 'asc']]],
    ['end_datetime descending', [['properties.end_datetime', 'desc']]],
    ['end_datetime ascending', [['end_datetime', 'asc']]],
    ['created ascending', [['properties.created', 'asc']]],
    ['updated descending', [['properties.updated', 'desc']]],
    ['title ascending (ties broken by id)', [['properties.title', 'asc']]],
    ['title descending', [['title', 'desc']]],
    ['description ascending (missing ones last)', [['properties.description', 'asc']]],
    ['id ascending', [['id', 'asc']]],
    ['id descending', [['id', 'desc']]],
    ['collection ascending (items of no collection last)', [['collection', 'asc']]],
    ['collection descending (items of no collection first)', [['collection', 'desc']]],
    ['a number with ties and gaps, descending', [['properties.cloud', 'desc']]],
    ['a number with ties, gaps and missing values, ascending', [['properties.cloud', 'asc']]],
    [
      'two nullable keys one way, ascending (missing ones last, on each key)',
      [
        ['properties.cloud', 'asc'],
        ['description', 'asc'],
      ],
    ],
    [
      'two nullable keys one way, descending (missing ones first, on each key)',
      [
        ['cloud', 'desc'],
        ['description', 'desc'],
      ],
    ],
    [
      'a nullable key after another, ascending',
      [
        ['collection', 'asc'],
        ['properties.cloud', 'asc'],
      ],
    ],
    ['a property of every JSON type, ascending', [['properties.mixed', 'asc']]],
    ['a property of every JSON type, descending', [['mixed', 'desc']]],
    [
      'three keys in mixed directions',
      [
        ['collection', 'asc'],
        ['properties.cloud', 'desc'],
        ['title', 'asc'],
      ],
    ],
    [
      'a time then a title the other way',
      [
        ['datetime', 'desc'],
        ['title', 'asc'],
      ],
    ],
    [
      'the id first: later keys change nothing',
      [
        ['id', 'desc'],
        ['title', 'asc'],
      ],
    ],
  ];
  it.each(cases)('%s', async (_name, terms) => {
    const want = bruteForce(fixture.items, terms);
    expect(want).toHaveLength(fixture.ids.length);
    const found = await sortedBothWays(terms);
    expect(found.get).toEqual(want);
    expect(found.post).toEqual(want);
  });

  it('the cases discriminate: different sorts give different orders', () => {
    const orders = new Set(
      [
        [['datetime', 'asc']],
        [['title', 'asc']],
        [['properties.cloud', 'desc']],
        [['collection', 'asc']],
        [['created', 'asc']],
        [['updated', 'desc']],
      ].map((terms) => bruteForce(fixture.items, terms as [string, Direction][]).join()),
    );
    expect(orders.size).toBe(6);
  });

  it('a "+" left unescaped in the URL (read as a space) still means ascending', async () => {
    const ids = fixture.ids.join(',');
    const { ids: found } = await pageToEnd({
      method: 'GET',
      path: `/api/v1/stac/search?ids=${ids}&limit=4&sortby=+properties.cloud,+title`,
    });
    expect(found).toEqual(
      bruteForce(fixture.items, [
        ['properties.cloud', 'asc'],
        ['title', 'asc'],
      ]),
    );
  });

  it("a collection's items sort too (OGC API Features binding)", async () => {
    const inA = fixture.items.filter((item) => item.collection === fixture.collectionA);
    const { ids } = await pageToEnd({
      method: 'GET',
      path: `/api/v1/stac/collections/${fixture.collectionA}/items?limit=2&sortby=-properties.cloud,title`,
    });
    expect(ids).toEqual(
      bruteForce(inA, [
        ['properties.cloud', 'desc'],
        ['title', 'asc'],
      ]),
    );
  });

  it('sortby with a datetime interval pages in order, both ways', async () => {
    const interval = '2020-01-01T00:00:00Z/2022-07-15T00:00:00Z';
    const inside = fixture.items.filter((item) => {
      const properties = item.properties as Record<string, string | null>;
      const start = Date.parse(properties.datetime ?? properties.start_datetime ?? '');
      const end = Date.parse(properties.datetime ?? properties.end_datetime ?? '');
      return start <= Date.parse('2022-07-15T00:00:00Z') && end >= Date.parse('2020-01-01T00:00:00Z');
    });
    expect(inside.length).toBeGreaterThan(3);
    expect(inside.length).toBeLessThan(fixture.items.length);
    for (const terms of [[['datetime', 'asc']], [['end_datetime', 'desc']]] as [string, Direction][][]) {
      const { ids } = await pageToEnd({
        method: 'GET',
        path: `/api/v1/stac/search?ids=${fixture.ids.join(',')}&limit=2&datetime=${interval}&sortby=${sortbyText(terms)}`,
      });
      expect(ids).toEqual(bruteForce(inside, terms));
    }
  });
});

describe('sort: conformance', () => {
  it('declares the sort classes of the search and of the features endpoint', async () => {
    const { body } = await call<{ conformsTo: string[] }>('GET', '/api/v1/stac/conformance');
    expect(body.conformsTo).toEqual(
      expect.arrayContaining([
        'https://api.stacspec.org/v1.0.0/item-search#sort',
        'https://api.stacspec.org/v1.0.0/ogcapi-features#sort',
      ]),
    );
  });
});

describe('sort: bad values answer 400 naming sortby', () => {
  const badGets: [string, string][] = [
    ['an empty sortby', 'sortby='],
    ['an empty field among others', 'sortby=title,,id'],
    ['the geometry', 'sortby=geometry'],
    ['the assets', 'sortby=assets'],
    ['a field named twice', 'sortby=title,-properties.title'],
    ['more than eight fields', `sortby=${Array.from({ length: 9 }, (_, n) => `p${n}`).join(',')}`],
    ['a sign alone', 'sortby=-'],
    ['sortby given twice', 'sortby=title&sortby=id'],
  ];
  it.each(badGets)('GET: %s', async (_name, query) => {
    const answer = await call<{ message: string }>('GET', `/api/v1/stac/search?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expectShape(specError, answer.body);
    expect(answer.body.message).toMatch(/sortby/);
  });

  const badBodies: [string, unknown][] = [
    ['a direction that is not asc or desc', [{ field: 'title', direction: 'up' }]],
    ['no field', [{ direction: 'asc' }]],
    ['an empty list', []],
    ['an unknown member', [{ field: 'title', direction: 'asc', nulls: 'first' }]],
    ['a number', 5],
  ];
  it.each(badBodies)('POST: %s', async (_name, sortby) => {
    const answer = await call<{ message: string }>('POST', '/api/v1/stac/search', { body: { sortby } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expectShape(specError, answer.body);
    expect(answer.body.message).toMatch(/sortby/);
  });

  it('a token continues only the sort it was issued for', async () => {
    const first = await call<{ links: { rel: string; href: string }[] }>(
      'GET',
      `/api/v1/stac/search?ids=${fixture.ids.join(',')}&limit=2&sortby=title`,
    );
    const next = first.body.links.find((link) => link.rel === 'next');
    const token = new URL(next?.href ?? 'http://x/').searchParams.get('token');
    expect(token).toBeTruthy();
    const other = await call<{ message: string }>(
      'GET',
      `/api/v1/stac/search?ids=${fixture.ids.join(',')}&limit=2&sortby=-title&token=${token}`,
    );
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/^token: /);
    const unsorted = await call('GET', `/api/v1/stac/search?limit=2&token=${token}`);
    expect(unsorted.status).toBe(400);
    const tampered = Buffer.from(JSON.stringify(['items', '+title,+id', ["x'); DROP", 'nope']])).toString(
      'base64url',
    );
    const bad = await call('GET', `/api/v1/stac/search?limit=2&sortby=title&token=${tampered}`);
    expect(bad.status).toBe(400);
    expectShape(specError, bad.body);
  });
});
