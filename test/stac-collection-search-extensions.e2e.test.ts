import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  evaluateCql2,
  parseCql2Text,
  printCql2Json,
  type Cql2Node,
  type Queryable,
  type QueryableType,
} from '@portal/cql2';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { createPortalObject, random, splitBox, type Box } from './support/stac-fixture.js';
import { expectShape, linkOf, specCollection, specError } from './support/stac-schemas.js';

/**
 * The collection search's optional classes on `GET /collections` — sort, fields, query, filter — against
 * brute force over the collections' own STAC JSON. Every request carries `q=<a word of this run>`, a
 * keyword only this file's collections hold, so the stack's other collections never enter the answer
 * and the expected list (and its order) is exact. Pages of three are followed to the end, so `next`
 * must keep every parameter and continue each order across its ties.
 */

useSignedInCaller();

const TAG = `zq${randomBytes(5).toString('hex')}`;
const WORDS = ['glacier', 'tundra', 'monsoon', 'fjord'] as const;
const LICENSES = [undefined, 'MIT', 'CC-BY-4.0', 'proprietary'] as const;

interface SeenCollection {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly license: string;
  readonly keywords: string[];
  readonly extent: {
    spatial: { bbox: number[][] };
    temporal: { interval: [string, string | null][] };
  };
  readonly [field: string]: unknown;
}

/** This file's collections, as `/collections/{id}` serves them, in the order they were created. */
let mine: SeenCollection[] = [];

beforeAll(async () => {
  const next = random(2026_11_29);
  const catalog = await createPortalObject('catalogs', { title: 'Collection search extensions' });
  const ids: string[] = [];
  for (let n = 0; n < 14; n += 1) {
    const word = WORDS[n % WORDS.length] as string;
    // Starts from four years only, so the time sorts have ties the id must break.
    const start = new Date(Date.UTC(2015 + (n % 4), 0, 1));
    const end = n % 3 === 0 ? null : new Date(start.getTime() + (1 + Math.floor(next() * 900)) * 86_400_000);
    const west = Math.round(next() * 340 - 170);
    const south = Math.round(next() * 120 - 60);
    const box: Box =
      n % 5 === 0
        ? [170, south, -170, south + 10]
        : [west, south, Math.min(180, west + 5 + Math.round(next() * 40)), south + 15];
    const license = LICENSES[n % LICENSES.length];
    ids.push(
      await createPortalObject('collections', {
        // Five titles for fourteen collections: ties the id breaks.
        title: `Lake ${'ABCDE'[n % 5]}`,
        description: n % 4 === 0 ? `A ${word} survey` : `Survey of the ${word} ${n}`,
        parentId: catalog,
        keywords: [TAG, word],
        ...(license === undefined ? {} : { license }),
        // The last two give no extent: theirs is computed (no ready item: the whole world, from now).
        ...(n < 12
          ? {
              extent: {
                spatial: { bbox: n % 2 === 0 ? [box] : [box, [0, 0, 1, 1]] },
                temporal: { interval: [[start.toISOString(), end === null ? null : end.toISOString()]] },
              },
            }
          : {}),
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

interface CollectionsPage {
  collections: Record<string, unknown>[];
  links: { rel: string; href: string; type?: string }[];
  numberReturned: number;
}

/** Every collection of the search (this run's only), following `next` to the end three at a time. */
async function searchAll(query: Record<string, string>, full = true): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let path: string | null =
    `/api/v1/stac/collections?${new URLSearchParams({ limit: '3', q: TAG, ...query }).toString()}`;
  for (let pages = 0; path !== null; pages += 1) {
    if (pages > 100) throw new Error('the paging does not end');
    const answer: { status: number; body: CollectionsPage } = await call('GET', path);
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
    if (full) for (const collection of answer.body.collections) expectShape(specCollection, collection);
    expect(answer.body.numberReturned).toBe(answer.body.collections.length);
    found.push(...answer.body.collections);
    const nextLink = linkOf(answer.body, 'next');
    path = nextLink === undefined ? null : new URL(nextLink.href).pathname + new URL(nextLink.href).search;
  }
  return found;
}

const idsOf = (collections: readonly Record<string, unknown>[]) =>
  collections.map((collection) => collection.id as string);

type Direction = 'asc' | 'desc';
type Key = string | number | null;

/** A sort key as the collection's JSON shows it; `created`/`updated`: the creation order. */
function keyOf(collection: SeenCollection, field: string): Key {
  const [first] = collection.extent.temporal.interval;
  switch (field) {
    case 'datetime':
    case 'start_datetime':
      return Date.parse(first?.[0] ?? '');
    case 'end_datetime':
      return first?.[1] == null ? null : Date.parse(first[1]);
    case 'created':
    case 'updated':
      // Created one after another and never changed since: both follow the creation order.
      return mine.indexOf(collection);
    case 'id':
    case 'title':
    case 'description':
    case 'license':
      return collection[field];
    default:
      throw new Error(`no brute force for ${field}`);
  }
}

/** PostgreSQL's order: NULL after every value ascending; text in code points (the database is C.UTF-8). */
function compareKeys(a: Key, b: Key): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return Number(a) - Number(b);
}

function bruteForceOrder(terms: readonly [string, Direction][]): string[] {
  const [first] = terms;
  const withId: [string, Direction][] = terms.some(([field]) => field === 'id')
    ? [...terms]
    : [...terms, ['id', first?.[1] ?? 'asc']];
  return [...mine]
    .sort((a, b) => {
      for (const [field, direction] of withId) {
        const order = compareKeys(keyOf(a, field), keyOf(b, field));
        if (order !== 0) return direction === 'asc' ? order : -order;
      }
      return 0;
    })
    .map((collection) => collection.id);
}

const sortbyText = (terms: readonly [string, Direction][]) =>
  terms.map(([field, direction]) => `${direction === 'desc' ? '-' : '+'}${field}`).join(',');

describe('collection search: sortby against a brute-force sort, paged across ties', () => {
  const cases: [string, [string, Direction][]][] = [
    ['title ascending', [['title', 'asc']]],
    ['title descending', [['title', 'desc']]],
    [
      'title, then the start of the extent descending',
      [
        ['title', 'asc'],
        ['datetime', 'desc'],
      ],
    ],
    ['datetime ascending', [['datetime', 'asc']]],
    ['start_datetime descending', [['start_datetime', 'desc']]],
    ['end_datetime ascending (open-ended last)', [['end_datetime', 'asc']]],
    [
      'end_datetime descending, then title',
      [
        ['end_datetime', 'desc'],
        ['title', 'asc'],
      ],
    ],
    ['description', [['description', 'asc']]],
    [
      'license descending, then title',
      [
        ['license', 'desc'],
        ['title', 'asc'],
      ],
    ],
    ['created descending', [['created', 'desc']]],
    ['updated', [['updated', 'asc']]],
    ['id descending', [['id', 'desc']]],
  ];
  it.each(cases)('%s', async (_name, terms) => {
    const found = await searchAll({ sortby: sortbyText(terms) });
    expect(idsOf(found)).toEqual(bruteForceOrder(terms));
  });

  it('without sortby: oldest first, as before', async () => {
    expect(idsOf(await searchAll({}))).toEqual(mine.map((collection) => collection.id));
  });

  it('a + left unescaped in the URL (a space) still reads as ascending', async () => {
    const path = `/api/v1/stac/collections?q=${TAG}&limit=20&sortby=+title`;
    const answer = await call<CollectionsPage>('GET', path);
    expect(answer.status).toBe(200);
    expect(idsOf(answer.body.collections)).toEqual(bruteForceOrder([['title', 'asc']]));
  });
});

/** The extension's rules on a collection: the most specific path decides. */
function project(collection: SeenCollection, keep: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of keep) {
    const parts = path.split('.');
    let from: unknown = collection;
    let to = out;
    parts.forEach((part, index) => {
      from = (from as Record<string, unknown> | undefined)?.[part];
      if (from === undefined) return;
      if (index === parts.length - 1) to[part] = from;
      else to = (to[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

const DEFAULT_SET = [
  'type',
  'stac_version',
  'stac_extensions',
  'id',
  'description',
  'license',
  'extent',
  'links',
];

describe('collection search: fields', () => {
  const cases: [string, (collection: SeenCollection) => Record<string, unknown>][] = [
    ['id,title', (c) => project(c, ['id', 'title'])],
    ['id,extent.temporal', (c) => project(c, ['id', 'extent.temporal'])],
    [
      '-links,-extent',
      (c) =>
        project(
          c,
          DEFAULT_SET.filter((name) => !['links', 'extent'].includes(name)),
        ),
    ],
    ['', (c) => project(c, DEFAULT_SET)],
    ['title,-extent.spatial,extent', (c) => project(c, ['title', 'extent.temporal'])],
    ['keywords,-id', (c) => project(c, ['keywords'])],
  ];
  it.each(cases)('fields=%s', async (fields, expected) => {
    const found = await searchAll({ fields, sortby: '-title' }, false);
    expect(found).toEqual(
      bruteForceOrder([['title', 'desc']]).map((id) =>
        expected(mine.find((collection) => collection.id === id) as SeenCollection),
      ),
    );
  });
});

describe('collection search: query (the query extension) against brute force', () => {
  const start = (c: SeenCollection) => Date.parse(c.extent.temporal.interval[0]?.[0] ?? '');
  const cases: [Record<string, Record<string, unknown>>, (c: SeenCollection) => boolean][] = [
    [{ license: { eq: 'mit' } }, (c) => c.license === 'MIT'],
    [{ license: { neq: 'other' } }, (c) => c.license !== 'other'],
    [{ title: { startsWith: 'lake b' } }, (c) => c.title === 'Lake B'],
    [
      { description: { contains: 'GLACIER' }, title: { in: ['Lake A', 'lake c'] } },
      (c) => c.description.includes('glacier') && ['Lake A', 'Lake C'].includes(c.title),
    ],
    [
      { datetime: { gte: '2016-01-01T00:00:00Z', lt: '2018-01-01T00:00:00Z' } },
      (c) => start(c) >= Date.parse('2016-01-01T00:00:00Z') && start(c) < Date.parse('2018-01-01T00:00:00Z'),
    ],
    [{ end_datetime: { eq: null } }, (c) => c.extent.temporal.interval[0]?.[1] === null],
    [{ license: { in: ['MIT', 'proprietary'] } }, (c) => ['MIT', 'proprietary'].includes(c.license)],
    // An array queryable: `in` is a shared value, exactly (not case-folded).
    [
      { keywords: { in: ['tundra', 'fjord', 'GLACIER'] } },
      (c) => c.keywords.includes('tundra') || c.keywords.includes('fjord'),
    ],
  ];
  it.each(cases.map(([query, rule]) => [JSON.stringify(query), rule] as const))('%s', async (query, rule) => {
    const want = mine.filter(rule).map((collection) => collection.id);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(mine.length);
    expect(idsOf(await searchAll({ query }))).toEqual(want);
  });
});

/** The collection queryables' types, for the evaluator (docs/stac.md, "Collection search"). */
const queryableTypes: Record<string, QueryableType> = {
  id: 'string',
  title: 'string',
  description: 'string',
  license: 'string',
  keywords: 'array',
  datetime: 'timestamp',
  start_datetime: 'timestamp',
  end_datetime: 'timestamp',
};
const resolve = (name: string): Queryable | undefined => {
  const type = queryableTypes[name];
  if (type === undefined) return undefined;
  return name === 'datetime' ? { sql: '', type, interval: { start: '', end: '' } } : { sql: '', type };
};

/** A collection as the evaluator reads it: its JSON, its extent's first interval (open end: unbounded). */
function recordOf(collection: SeenCollection) {
  const [start, end] = collection.extent.temporal.interval[0] ?? ['', null];
  const values: Record<string, unknown> = {
    id: collection.id,
    title: collection.title,
    description: collection.description,
    license: collection.license,
    keywords: collection.keywords,
    datetime: start,
    start_datetime: start,
    end_datetime: end,
  };
  return {
    get: (name: string) => values[name],
    interval: () => [start, end ?? '9999-12-31T23:59:59Z'] as const,
  };
}

describe('collection search: filter (CQL2 text and JSON) against the evaluator', () => {
  const filters = [
    "license = 'MIT'",
    "title LIKE 'Lake B%' OR license = 'other'",
    "A_CONTAINS(keywords, ('glacier'))",
    "A_OVERLAPS(keywords, ('tundra', 'fjord')) AND NOT title = 'Lake A'",
    "T_INTERSECTS(datetime, INTERVAL('2016-06-01T00:00:00Z', '2017-01-01T00:00:00Z'))",
    "T_AFTER(datetime, TIMESTAMP('2015-06-01T00:00:00Z'))",
    'end_datetime IS NULL',
    "datetime >= TIMESTAMP('2017-01-01T00:00:00Z') AND NOT CASEI(description) LIKE '%glacier%'",
    "end_datetime < TIMESTAMP('2017-01-01T00:00:00Z')",
  ];
  it.each(filters)('%s', async (text) => {
    const node: Cql2Node = parseCql2Text(text);
    const want = mine
      .filter((collection) => evaluateCql2(node, resolve, recordOf(collection)) === true)
      .map((collection) => collection.id);
    expect(want.length, text).toBeGreaterThan(0);
    expect(want.length, text).toBeLessThan(mine.length);
    expect(idsOf(await searchAll({ filter: text }))).toEqual(want);
    const json = JSON.stringify(printCql2Json(node));
    expect(idsOf(await searchAll({ filter: json, 'filter-lang': 'cql2-json' }))).toEqual(want);
  });

  it('ids, and the spatial extent (every box, across the antimeridian) against rectangles', async () => {
    const two = [mine[1]?.id ?? '', mine[4]?.id ?? ''];
    expect(idsOf(await searchAll({ filter: `id IN ('${two[0]}', '${two[1]}')` }))).toEqual(two);
    const overlaps = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
    const boxes: Box[] = [
      [-30, -40, 60, 40],
      [175, -60, 179, 60],
      [-179, -60, -175, 60],
      [0.5, 0.5, 0.6, 0.6],
    ];
    for (const box of boxes) {
      const want = mine
        .filter((collection) =>
          collection.extent.spatial.bbox.some((own) =>
            splitBox(own as unknown as Box).some((part) => overlaps(part, box)),
          ),
        )
        .map((collection) => collection.id);
      expect(want.length).toBeGreaterThan(0);
      const found = await searchAll({ filter: `S_INTERSECTS(geometry, BBOX(${box.join(', ')}))` });
      expect(idsOf(found), box.join(',')).toEqual(want);
    }
  });

  it('filter, query, q, bbox and sortby together', async () => {
    const found = await searchAll({
      filter: "license <> 'other'",
      query: JSON.stringify({ title: { neq: 'Lake C' } }),
      sortby: '-datetime',
    });
    const want = bruteForceOrder([['datetime', 'desc']]).filter((id) => {
      const collection = mine.find((candidate) => candidate.id === id) as SeenCollection;
      return collection.license !== 'other' && collection.title !== 'Lake C';
    });
    expect(want.length).toBeGreaterThan(2);
    expect(idsOf(found)).toEqual(want);
  });
});

describe('collection search: queryables, sortables, errors and conformance', () => {
  it('/collections links its queryables and sortables; each lists names that work', async () => {
    const page = await call<CollectionsPage>('GET', `/api/v1/stac/collections?q=${TAG}`);
    const queryablesLink = linkOf(page.body, 'http://www.opengis.net/def/rel/ogc/1.0/queryables');
    const sortablesLink = linkOf(page.body, 'http://www.opengis.net/def/rel/ogc/1.0/sortables');
    expect(queryablesLink?.href).toMatch(/\/api\/v1\/stac\/collection-queryables$/);
    expect(sortablesLink?.href).toMatch(/\/api\/v1\/stac\/collection-sortables$/);
    for (const [link, parameter] of [
      [queryablesLink, 'filter'],
      [sortablesLink, 'sortby'],
    ] as const) {
      const url = new URL(link?.href ?? '');
      const schema = await call<{
        $id: string;
        properties: Record<string, unknown>;
        additionalProperties: boolean;
      }>('GET', url.pathname);
      expect(schema.status).toBe(200);
      expect(schema.body.$id).toBe(link?.href);
      expect(schema.body.additionalProperties).toBe(false);
      const names = Object.keys(schema.body.properties);
      expect(names.length).toBeGreaterThan(5);
      for (const name of names) {
        const value = parameter === 'filter' ? `${name} IS NOT NULL OR ${name} IS NULL` : `-${name}`;
        const answer = await call(
          'GET',
          `/api/v1/stac/collections?q=${TAG}&${parameter}=${encodeURIComponent(value)}`,
        );
        expect(answer.status, `${parameter} ${name}: ${JSON.stringify(answer.body)}`).toBe(200);
      }
    }
  });

  it('bad values answer 400 with code, description and message naming the parameter', async () => {
    const cases: [string, RegExp, string][] = [
      ['sortby=cloud', /^sortby: unknown field 'cloud'/, 'INVALID_SORTBY'],
      ['sortby=keywords', /^sortby: cannot sort by 'keywords'/, 'INVALID_SORTBY'],
      ['sortby=title,-title', /^sortby: names 'title' twice/, 'INVALID_SORTBY'],
      ['sortby=properties.title', /^sortby: unknown field/, 'INVALID_SORTBY'],
      ['filter=cloud%20%3E%201', /^filter: unknown queryable 'cloud'/, 'INVALID_FILTER'],
      ['filter=title%20%3D', /^filter: syntax error/, 'INVALID_FILTER'],
      ['filter=title%20%3D%201', /^filter: cannot compare/, 'INVALID_FILTER'],
      ['filter-lang=xml', /^filter: unsupported filter-lang/, 'INVALID_FILTER'],
      ['query=%7B%22cloud%22%3A%7B%22gt%22%3A1%7D%7D', /^query: unknown queryable 'cloud'/, 'INVALID_QUERY'],
      ['query=%7B%22title%22%3A%7B%22gt%22%3A1%7D%7D', /^query: /, 'INVALID_QUERY'],
      ['query=nope', /^query: must be a JSON object/, 'INVALID_QUERY'],
      ['fields=id..title', /^fields: 'id..title' has an empty part/, 'INVALID_FIELDS'],
      ['token=abc', /^token: /, 'INVALID_TOKEN'],
    ];
    for (const [query, message, code] of cases) {
      const answer = await call<{ message: string; code: string; description: string }>(
        'GET',
        `/api/v1/stac/collections?${query}`,
      );
      expect(answer.status, query).toBe(400);
      expectShape(specError, answer.body);
      expect(answer.body.message, query).toMatch(message);
      expect(answer.body.description, query).toMatch(message);
      expect(answer.body.code, query).toBe(code);
    }
  });

  it('a token is valid only under its own sort and on its own list', async () => {
    const first = await call<CollectionsPage>(
      'GET',
      `/api/v1/stac/collections?q=${TAG}&limit=2&sortby=title`,
    );
    const token = new URL(linkOf(first.body, 'next')?.href ?? '').searchParams.get('token') ?? '';
    const again = await call('GET', `/api/v1/stac/collections?q=${TAG}&limit=2&sortby=title&token=${token}`);
    expect(again.status).toBe(200);
    for (const path of [
      `/api/v1/stac/collections?q=${TAG}&limit=2&sortby=-title&token=${token}`,
      `/api/v1/stac/children?limit=2&token=${token}`,
    ]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(400);
      expectShape(specError, answer.body);
    }
  });

  it('conformance declares the optional classes', async () => {
    const { body } = await call<{ conformsTo: string[] }>('GET', '/api/v1/stac/conformance');
    expect(body.conformsTo).toEqual(
      expect.arrayContaining([
        'https://api.stacspec.org/v1.0.0/collection-search',
        'https://api.stacspec.org/v1.1.0/collection-search#sort',
        'https://api.stacspec.org/v1.1.0/collection-search#sortables',
        'https://api.stacspec.org/v1.0.0/collection-search#fields',
        'https://api.stacspec.org/v1.0.0-rc.1/collection-search#query',
        'https://api.stacspec.org/v1.0.0/collection-search#filter',
      ]),
    );
  });
});
