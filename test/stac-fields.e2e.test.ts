import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { seedExtensionFixture, type ExtensionFixture } from './support/stac-extension-fixture.js';
import { pageToEnd } from './support/stac-fixture.js';
import { expectShape, specError, specItem, type SpecItem } from './support/stac-schemas.js';

/**
 * The fields extension: every shape its include/exclude table defines, by GET and by POST, each
 * compared with the full item the search serves without `fields`, cut here by hand (pick and omit), so
 * a field kept or dropped wrongly shows. Pages are followed to the end: the `next` links keep `fields`.
 */

useSignedInCaller();

let fixture: ExtensionFixture;
/** The full items, by id, in the search's default order. */
let full: Map<string, SpecItem>;
let order: string[];

beforeAll(async () => {
  fixture = await seedExtensionFixture(2026_02, 12);
  const all = await pageToEnd({
    method: 'POST',
    path: '/api/v1/stac/search',
    body: { ids: fixture.ids, limit: 100 },
  });
  order = all.ids;
  full = new Map(all.pages.flatMap((page) => page.features).map((item) => [item.id, item]));
}, 180_000);

type Json = Record<string, unknown>;

/** The item with only these top-level fields and these properties (those it has). */
function pick(item: SpecItem, top: readonly string[], properties: readonly string[] | 'all' = []): Json {
  const source = item as unknown as Json;
  const result: Json = {};
  for (const name of top) if (name in source) result[name] = source[name];
  const itemProperties = item.properties as Json;
  const kept =
    properties === 'all'
      ? { ...itemProperties }
      : Object.fromEntries(
          properties.filter((name) => name in itemProperties).map((name) => [name, itemProperties[name]]),
        );
  if (Object.keys(kept).length > 0) result.properties = kept;
  return result;
}

function omitProperties(item: Json, names: readonly string[]): Json {
  const properties = Object.fromEntries(
    Object.entries(item.properties as Json).filter(([name]) => !names.includes(name)),
  );
  return { ...item, properties };
}

const DEFAULT_TOP = [
  'type',
  'stac_version',
  'stac_extensions',
  'id',
  'geometry',
  'bbox',
  'links',
  'assets',
  'collection',
];
const TIME = ['datetime', 'start_datetime', 'end_datetime'];
/** Kept beside every include unless excluded by name (docs/stac.md, "Fields"). */
const ALWAYS = ['type', 'stac_version', 'id', 'links'];
const defaultOf = (item: SpecItem) => pick(item, DEFAULT_TOP, TIME);

/** Every feature of the search with `fields`, by GET and by POST, three to a page. */
async function withFields(get: string, post: unknown): Promise<{ get: Json[]; post: Json[] }> {
  const ids = fixture.ids.join(',');
  const byGet = await pageToEnd(
    { method: 'GET', path: `/api/v1/stac/search?ids=${ids}&limit=3&fields=${encodeURIComponent(get)}` },
    {},
    true,
  );
  const byPost = await pageToEnd(
    { method: 'POST', path: '/api/v1/stac/search', body: { ids: fixture.ids, limit: 3, fields: post } },
    {},
    true,
  );
  const features = (pages: { features: unknown[] }[]) => pages.flatMap((page) => page.features as Json[]);
  return { get: features(byGet.pages), post: features(byPost.pages) };
}

const expected = (cut: (item: SpecItem) => Json) => order.map((id) => cut(full.get(id) as SpecItem));

describe('fields: the include/exclude table', () => {
  it('the fixture has what the cases need: ranges, items without `cloud`, items of no collection', () => {
    const items = [...full.values()];
    expect(items.some((item) => item.properties.datetime === null)).toBe(true);
    expect(items.some((item) => !('cloud' in item.properties))).toBe(true);
    expect(items.some((item) => item.collection === undefined)).toBe(true);
  });

  it('no fields: the whole item', async () => {
    const { pages } = await pageToEnd({
      method: 'GET',
      path: `/api/v1/stac/search?ids=${fixture.ids.join(',')}&limit=5`,
    });
    expect(pages.flatMap((page) => page.features)).toEqual(expected((item) => item as unknown as Json));
  });

  it('empty (GET `fields=`, POST `{}`): the default set, still valid STAC Items', async () => {
    const found = await withFields('', {});
    const want = expected(defaultOf);
    expect(found.get).toEqual(want);
    expect(found.post).toEqual(want);
    for (const item of found.get) expectShape(specItem, item);
    expect((await withFields('', { include: null, exclude: [] })).post).toEqual(want);
  });

  it('include only: those fields and what says what each is (a property it lacks is simply absent)', async () => {
    const found = await withFields('id,properties.cloud,+bbox', {
      include: ['id', 'properties.cloud', 'bbox'],
    });
    const want = expected((item) => pick(item, [...ALWAYS, 'bbox'], ['cloud']));
    expect(found.get).toEqual(want);
    expect(found.post).toEqual(want);
    expect(want.some((item) => !('properties' in item))).toBe(true);
  });

  it('a bare name is a property', async () => {
    const found = await withFields('id,cloud,title', { include: ['id', 'cloud', 'title'] });
    const want = expected((item) => pick(item, ALWAYS, ['cloud', 'title']));
    expect(found.get).toEqual(want);
    expect(found.post).toEqual(want);
  });

  it('GET excludes alone, and POST excludes beside an empty include: the default set less those', async () => {
    const want = expected((item) => {
      const { geometry: _geometry, ...rest } = defaultOf(item);
      return rest;
    });
    const found = await withFields('-geometry', { include: [], exclude: ['geometry'] });
    expect(found.get).toEqual(want);
    expect(found.post).toEqual(want);
    const withoutProperties = await withFields('-properties', { include: null, exclude: ['properties'] });
    const noProperties = expected((item) => {
      const { properties: _properties, ...rest } = defaultOf(item);
      return rest;
    });
    expect(withoutProperties.get).toEqual(noProperties);
    expect(withoutProperties.post).toEqual(noProperties);
  });

  it('POST excludes alone (include missing): the whole item less those', async () => {
    const found = await withFields('-geometry', { exclude: ['geometry', 'properties.cloud', 'links'] });
    expect(found.post).toEqual(
      expected((item) => {
        const { geometry: _geometry, links: _links, ...rest } = item as unknown as Json;
        return omitProperties(rest, ['cloud']);
      }),
    );
  });

  it('include an object, exclude a field of it: the object without that field', async () => {
    const found = await withFields('id,properties,-properties.cloud,-properties.keywords', {
      include: ['id', 'properties'],
      exclude: ['properties.cloud', 'properties.keywords'],
    });
    const want = expected((item) => omitProperties(pick(item, ALWAYS, 'all'), ['cloud', 'keywords']));
    expect(found.get).toEqual(want);
    expect(found.post).toEqual(want);
  });

  it('exclude an object, include a field of it: that field alone in the object', async () => {
    const found = await withFields('-properties,properties.n,id', {
      include: ['properties.n', 'id'],
      exclude: ['properties'],
    });
    const want = expected((item) => pick(item, ALWAYS, ['n']));
    expect(found.get).toEqual(want);
    expect(found.post).toEqual(want);
  });

  it('a field both included and excluded is included', async () => {
    const found = await withFields('id,geometry,-geometry', {
      include: ['id', 'geometry'],
      exclude: ['geometry', 'bbox'],
    });
    const want = expected((item) => pick(item, [...ALWAYS, 'geometry']));
    expect(found.get).toEqual(want);
    expect(found.post).toEqual(want);
  });

  it('what an include keeps unasked goes when it is excluded by name', async () => {
    const found = await withFields('geometry,-links,-stac_version', {
      include: ['geometry'],
      exclude: ['links', 'stac_version'],
    });
    const want = expected((item) => pick(item, ['type', 'id', 'geometry']));
    expect(found.get).toEqual(want);
    expect(found.post).toEqual(want);
  });

  it("a collection's items take `fields` too, and keep it on every page", async () => {
    const { pages } = await pageToEnd(
      {
        method: 'GET',
        path: `/api/v1/stac/collections/${fixture.collectionA}/items?limit=2&fields=id,collection`,
      },
      {},
      true,
    );
    const features = pages.flatMap((page) => page.features as unknown as Json[]);
    expect(pages.length).toBeGreaterThan(1);
    const inA = order.filter((id) => full.get(id)?.collection === fixture.collectionA);
    expect(features).toEqual(
      inA.map((id) => ({ ...pick(full.get(id) as SpecItem, ALWAYS), collection: fixture.collectionA })),
    );
  });
});

describe('fields: bad values answer 400 naming fields', () => {
  const badGets: [string, string][] = [
    ['an empty name among others', 'id,,bbox'],
    ['a minus alone', '-'],
    ['an empty part of a path', 'properties..cloud'],
    ['too many names', Array.from({ length: 101 }, (_, n) => `p${n}`).join(',')],
  ];
  it.each(badGets)('GET: %s', async (_name, fields) => {
    const answer = await call<{ message: string }>(
      'GET',
      `/api/v1/stac/search?fields=${encodeURIComponent(fields)}`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expectShape(specError, answer.body);
    expect(answer.body.message).toMatch(/fields/);
  });

  const badBodies: [string, unknown][] = [
    ['a string', 'id,geometry'],
    // Not the default set: the STAC API validator expects `fields: null` refused.
    ['null', null],
    ['include a string', { include: 'id' }],
    ['an unknown member', { includes: ['id'] }],
    ['an empty name', { include: [''] }],
    ['names that are not strings', { exclude: [1] }],
  ];
  it.each(badBodies)('POST: %s', async (_name, fields) => {
    const answer = await call<{ message: string }>('POST', '/api/v1/stac/search', { body: { fields } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expectShape(specError, answer.body);
    expect(answer.body.message).toMatch(/fields/);
  });

  it('conformance declares the fields classes', async () => {
    const { body } = await call<{ conformsTo: string[] }>('GET', '/api/v1/stac/conformance');
    expect(body.conformsTo).toEqual(
      expect.arrayContaining([
        'https://api.stacspec.org/v1.0.0/item-search#fields',
        'https://api.stacspec.org/v1.0.0/ogcapi-features#fields',
      ]),
    );
  });
});
