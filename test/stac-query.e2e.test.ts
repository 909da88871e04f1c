import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call, expectCommand } from './support/http.js';
import { seedExtensionFixture, type ExtensionFixture } from './support/stac-extension-fixture.js';
import { pageToEnd } from './support/stac-fixture.js';
import { expectShape, specError, type SpecItem } from './support/stac-schemas.js';

/**
 * The query extension against a brute-force reading of the same items' STAC JSON: every operator, on
 * numbers, strings in mixed case, a property of every JSON type, the item's own times and fields, by GET
 * (JSON text) and by POST, paged to the end. The evaluator below is the extension's meaning written
 * plainly: strings compared without case, a value of another JSON type (or none) never matching.
 */

useSignedInCaller();

let fixture: ExtensionFixture;

beforeAll(async () => {
  fixture = await seedExtensionFixture(2026_03);
}, 180_000);

type Query = Record<string, Record<string, unknown>>;

/** What a property name means (the queryables): the item's own fields, else `properties`. */
function valueOf(item: SpecItem, name: string): { value: unknown; time: boolean } {
  const properties = item.properties as Record<string, unknown>;
  switch (name) {
    case 'id':
      return { value: item.id, time: false };
    case 'collection':
      return { value: item.collection ?? null, time: false };
    case 'datetime':
    case 'start_datetime':
    case 'end_datetime':
    case 'created':
    case 'updated':
      return { value: properties[name] ?? null, time: true };
    default:
      return { value: properties[name], time: false };
  }
}

const STRICT_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** The instant a value holds when compared with a time (a JSON property must be a strict UTC instant). */
function instantOf(value: unknown, time: boolean): number | null {
  if (typeof value !== 'string') return null;
  if (!time && !STRICT_INSTANT.test(value)) return null;
  return Date.parse(value);
}

/** A string that reads as a JSON number also compares as that number (clients send numbers as text). */
const NUMBER_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const numberIn = (wanted: unknown): number | null => {
  if (typeof wanted !== 'string' || !NUMBER_TEXT.test(wanted)) return null;
  const number = Number(wanted);
  return Number.isFinite(number) ? number : null;
};

function equals(value: unknown, time: boolean, wanted: unknown): boolean | null {
  if (wanted === null) return value === undefined || value === null;
  if (typeof wanted === 'string') {
    if (time) {
      const instant = instantOf(value, true);
      return instant === null ? null : instant === Date.parse(wanted);
    }
    const number = numberIn(wanted);
    if (typeof value === 'number' && number !== null) return value === number;
    return typeof value === 'string' ? value.toLowerCase() === wanted.toLowerCase() : null;
  }
  return typeof value === typeof wanted ? value === wanted : null;
}

function operatorHolds(item: SpecItem, name: string, operator: string, wanted: unknown): boolean {
  const { value, time } = valueOf(item, name);
  const order = (holds: (a: number, b: number) => boolean) => {
    const number = time ? null : numberIn(wanted);
    if (number !== null) return typeof value === 'number' && holds(value, number);
    if (typeof wanted === 'number') return typeof value === 'number' && holds(value, wanted);
    const instant = instantOf(value, time);
    return instant !== null && holds(instant, Date.parse(wanted as string));
  };
  const text = typeof value === 'string' ? value.toLowerCase() : null;
  const pattern = String(wanted).toLowerCase();
  switch (operator) {
    case 'eq':
      return equals(value, time, wanted) === true;
    case 'neq':
      // Three-valued, as CQL2: no value (or one of another type) is neither equal nor unequal.
      if (wanted === null) return value !== undefined && value !== null;
      return equals(value, time, wanted) === false;
    case 'lt':
      return order((a, b) => a < b);
    case 'lte':
      return order((a, b) => a <= b);
    case 'gt':
      return order((a, b) => a > b);
    case 'gte':
      return order((a, b) => a >= b);
    case 'startsWith':
      return text !== null && text.startsWith(pattern);
    case 'endsWith':
      return text !== null && text.endsWith(pattern);
    case 'contains':
      return text !== null && text.includes(pattern);
    case 'in':
      // An array property matches when it shares a value with the list (exactly: no case folding).
      return (
        (wanted as unknown[]).some((option) => equals(value, time, option) === true) ||
        (Array.isArray(value) &&
          value.some((element) =>
            (wanted as unknown[]).some(
              (option) => element === option || (typeof element === 'number' && numberIn(option) === element),
            ),
          ))
      );
    default:
      throw new Error(`no such operator ${operator}`);
  }
}

function bruteForce(items: readonly SpecItem[], query: Query): Set<string> {
  return new Set(
    items
      .filter((item) =>
        Object.entries(query).every(([given, operators]) => {
          const name = given.startsWith('properties.') ? given.slice('properties.'.length) : given;
          return Object.entries(operators).every(([operator, wanted]) =>
            operatorHolds(item, name, operator, wanted),
          );
        }),
      )
      .map((item) => item.id),
  );
}

async function queriedBothWays(query: Query) {
  const ids = fixture.ids.join(',');
  const byGet = await pageToEnd({
    method: 'GET',
    path: `/api/v1/stac/search?ids=${ids}&limit=4&query=${encodeURIComponent(JSON.stringify(query))}`,
  });
  const byPost = await pageToEnd({
    method: 'POST',
    path: '/api/v1/stac/search',
    body: { ids: fixture.ids, limit: 4, query },
  });
  return { get: new Set(byGet.ids), post: new Set(byPost.ids) };
}

describe('query: every operator against brute force', () => {
  const cases: [string, Query][] = [
    ['a number between two bounds', { cloud: { gte: 1, lte: 3 } }],
    ['a number equal', { 'properties.cloud': { eq: 2 } }],
    ['a number not equal (items without it match neither)', { cloud: { neq: 2 } }],
    ['strictly below and above', { cloud: { gt: 0, lt: 4 } }],
    ['a string equal, whatever its case', { label: { eq: 'SENTINEL-2A' } }],
    ['a string not equal, whatever its case', { label: { neq: 'modis' } }],
    ['startsWith, whatever the case', { label: { startsWith: 'sentinel' } }],
    ['endsWith', { label: { endsWith: '-8' } }],
    ['contains', { label: { contains: 'SAT' } }],
    ['contains a LIKE wildcard, taken literally', { label: { contains: '_' } }],
    ['startsWith a LIKE wildcard, taken literally', { label: { startsWith: '%' } }],
    ['in, strings of any case', { label: { in: ['MODIS', 'landsat-8'] } }],
    ['in, numbers', { cloud: { in: [0, 4] } }],
    ['in, an array property sharing a value', { keywords: { in: ['alpha', 'golf'] } }],
    ['a number given as text, equal', { cloud: { eq: '2' } }],
    ['a number given as text, not equal', { cloud: { neq: '2' } }],
    ['numbers given as text, between', { cloud: { gte: '1', lt: '3.5' } }],
    ['every JSON type: a number given as text', { mixed: { eq: '3' } }],
    ['in, numbers given as text', { cloud: { in: ['0', '4'] } }],
    ['in, every JSON type (an array shares a value)', { mixed: { in: [1, 'A'] } }],
    ['every JSON type: a string', { mixed: { eq: 'a' } }],
    ['every JSON type: numbers above zero', { mixed: { gt: 0 } }],
    ['every JSON type: a boolean', { mixed: { eq: true } }],
    ['every JSON type: null or missing', { mixed: { eq: null } }],
    ['every JSON type: present and not null', { mixed: { neq: null } }],
    ['the instant (null for a range)', { 'properties.datetime': { gte: '2021-01-01T00:00:00Z' } }],
    ['the end of a range, with an offset', { end_datetime: { lt: '2022-07-17T02:00:00+02:00' } }],
    ['the title contains, whatever the case', { title: { contains: 'ALPHA' } }],
    ['a description that is missing', { description: { eq: null } }],
    ['an exact instant', { datetime: { eq: '2021-03-01T10:00:00Z' } }],
    [
      'several properties, ANDed',
      { cloud: { gte: 2 }, label: { startsWith: 'Sentinel' }, title: { neq: 'delta delta' } },
    ],
  ];
  it.each(cases)('%s', async (_name, query) => {
    const want = bruteForce(fixture.items, query);
    const found = await queriedBothWays(query);
    expect(found.get).toEqual(want);
    expect(found.post).toEqual(want);
  });

  it('the cases discriminate: each keeps some items and drops others', () => {
    const discriminating = cases.filter(([, query]) => {
      const size = bruteForce(fixture.items, query).size;
      return size > 0 && size < fixture.items.length;
    });
    // The two wildcard cases match nothing on purpose: a LIKE that did not escape would match all.
    expect(discriminating.length).toBe(cases.length - 2);
    expect(bruteForce(fixture.items, { label: { contains: '_' } }).size).toBe(0);
  });

  it('updated after a given instant (times the portal keeps)', async () => {
    const middle = [...fixture.items]
      .map((item) => (item.properties as Record<string, string>).updated as string)
      .sort()[Math.floor(fixture.items.length / 2)] as string;
    const query = { updated: { gt: middle } };
    const found = await queriedBothWays(query);
    expect(found.post).toEqual(bruteForce(fixture.items, query));
    expect(found.post.size).toBeGreaterThan(0);
  });

  it('with a filter and on a collection’s items, ANDed with the rest', async () => {
    const query = { cloud: { lte: 2 } };
    const inA = fixture.items.filter((item) => item.collection === fixture.collectionA);
    const { ids } = await pageToEnd({
      method: 'GET',
      path: `/api/v1/stac/collections/${fixture.collectionA}/items?limit=2&query=${encodeURIComponent(JSON.stringify(query))}`,
    });
    expect(new Set(ids)).toEqual(bruteForce(inA, query));
    const both = await pageToEnd({
      method: 'POST',
      path: '/api/v1/stac/search',
      body: { ids: fixture.ids, limit: 3, query, filter: "label LIKE 'Sentinel%'" },
    });
    const want = [...bruteForce(fixture.items, query)].filter((id) =>
      String(fixture.items.find((item) => item.id === id)?.properties.label).startsWith('Sentinel'),
    );
    expect(new Set(both.ids)).toEqual(new Set(want));
  });
});

describe('query: numbers written as text, against strings and numbers alike', () => {
  const values: unknown[] = ['7', 7, '007', 'x', 7.5, [7, '8'], 'X'];
  let items: SpecItem[] = [];

  beforeAll(async () => {
    const features = [...values, undefined].map((digits, n) => ({
      type: 'Feature',
      stac_version: '1.0.0',
      id: randomUUID(),
      geometry: { type: 'Point', coordinates: [n, n] },
      bbox: [n, n, n, n],
      properties: { datetime: '2024-01-01T00:00:00Z', ...(digits === undefined ? {} : { digits }) },
      links: [],
      assets: {},
    }));
    const added = await call<{ ids: string[] }>(
      'POST',
      `/api/v1/stac/collections/${fixture.collectionA}/items`,
      { body: { type: 'FeatureCollection', features } },
    );
    await expectCommand(added, 201, 'add the items');
    const all = await pageToEnd({
      method: 'POST',
      path: '/api/v1/stac/search',
      body: { ids: features.map((feature) => feature.id), limit: 100 },
    });
    items = all.pages.flatMap((page) => page.features);
    expect(items).toHaveLength(values.length + 1);
  }, 60_000);

  const cases: [string, Query, number][] = [
    ['eq: the number and the same text', { digits: { eq: '7' } }, 2],
    ['neq: three-valued over every JSON type', { digits: { neq: '7' } }, 4],
    ['in: values, and an array sharing one', { digits: { in: ['7'] } }, 3],
    ['in: an array sharing a string', { digits: { in: ['8'] } }, 1],
    ['gt: numbers only', { digits: { gt: '7' } }, 1],
    ['text that is not a number stays text, whatever its case', { digits: { eq: 'x' } }, 2],
  ];
  it.each(cases)('%s', async (_name, query, count) => {
    const want = bruteForce(items, query);
    expect(want.size).toBe(count);
    const ids = items.map((item) => item.id);
    const byPost = await pageToEnd({
      method: 'POST',
      path: '/api/v1/stac/search',
      body: { ids, limit: 100, query },
    });
    expect(new Set(byPost.ids)).toEqual(want);
  });
});

describe('query: bad values answer 400 naming query', () => {
  const bad: [string, unknown][] = [
    ['an array', [{ cloud: { eq: 1 } }]],
    ['a property mapped to a value, not operators', { cloud: 5 }],
    ['no operator', { cloud: {} }],
    ['an unknown operator', { cloud: { like: 'a%' } }],
    ['an object as a value', { cloud: { eq: { a: 1 } } }],
    ['an empty in', { cloud: { in: [] } }],
    ['in of objects', { cloud: { in: [{}] } }],
    ['gt of a word', { cloud: { gt: 'yesterday' } }],
    ['gt of a date-time without a zone', { cloud: { gt: '2024-01-01T00:00:00' } }],
    ['startsWith a number', { label: { startsWith: 5 } }],
    ['the geometry', { geometry: { eq: 'x' } }],
    ['a string property compared with a number', { title: { gt: 5 } }],
    ['a time compared with a word', { datetime: { eq: 'soon' } }],
    ['a pattern on a time', { created: { startsWith: '2024' } }],
    ['too many values', { cloud: { in: Array.from({ length: 201 }, (_, n) => n) } }],
  ];
  it.each(bad)('%s', async (_name, query) => {
    const byPost = await call<{ message: string }>('POST', '/api/v1/stac/search', { body: { query } });
    expect(byPost.status, JSON.stringify(byPost.body)).toBe(400);
    expectShape(specError, byPost.body);
    // The contract refuses a body of the wrong shape first ("invalid body: query: …").
    expect(byPost.body.message).toMatch(/(^|body: )query: /);
    const byGet = await call<{ message: string }>(
      'GET',
      `/api/v1/stac/search?query=${encodeURIComponent(JSON.stringify(query))}`,
    );
    expect(byGet.status).toBe(400);
    expect(byGet.body.message).toMatch(/^query: /);
  });

  it('GET: text that is not JSON; POST: a query that is not an object', async () => {
    const notJson = await call<{ message: string }>('GET', '/api/v1/stac/search?query=%7Bcloud');
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toMatch(/^query: /);
    const text = await call<{ message: string }>('POST', '/api/v1/stac/search', {
      body: { query: 'cloud=1' },
    });
    expect(text.status).toBe(400);
    expect(text.body.message).toMatch(/query/);
  });

  it('conformance declares the query classes', async () => {
    const { body } = await call<{ conformsTo: string[] }>('GET', '/api/v1/stac/conformance');
    expect(body.conformsTo).toEqual(
      expect.arrayContaining([
        'https://api.stacspec.org/v1.0.0-rc.2/item-search#query',
        'https://api.stacspec.org/v1.0.0-rc.2/ogcapi-features#query',
      ]),
    );
  });
});
