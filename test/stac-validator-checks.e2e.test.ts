import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call, expectCommand } from './support/http.js';

/**
 * The requests the reference STAC API validator (stac-utils/stac-api-validator) makes for the classes
 * this API declares, with its own values, and what it asserts of each answer (docs/stac.md, "What the
 * STAC API validator checks"). Its rules that other suites do not state: the media type by path
 * (`…/search` and `…/items` answer GeoJSON, everything else JSON), `self` links equal to the URL asked,
 * any `limit` up to a million accepted (clamped), its lists of datetimes that must and must not parse,
 * CQL2 it writes (the draft `between`), `fields` layouts, numbers written as text in `query`, and
 * `collections` as one string in a POST. And what pystac-client sends that the validator does not.
 */

useSignedInCaller();

const STAC = '/api/v1/stac';
let collection: string;
let ids: string[] = [];

interface Link {
  readonly rel: string;
  readonly href: string;
  readonly type?: string;
  readonly method?: string;
  readonly body?: Record<string, unknown>;
  readonly merge?: boolean;
}
type Json = Record<string, unknown>;
interface Feature extends Json {
  readonly id: string;
  readonly collection?: string;
  readonly links: Link[];
  readonly properties: Json;
}
interface Page extends Json {
  readonly features: Feature[];
  readonly links: Link[];
}

const pathOf = (href: string): string => {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
};
const linkOf = (body: { links?: Link[] } | null, rel: string, method?: string): Link | undefined =>
  body?.links?.find(
    (link) => link.rel === rel && (method === undefined || (link.method ?? 'GET') === method),
  );

/** The answer, after the validator's media-type rule for its path: GeoJSON for `/search` and `/items`. */
async function fetched<T>(method: string, href: string, body?: unknown): Promise<T> {
  const path = href.startsWith('http') ? pathOf(href) : href;
  const answer = await call<T>(method, path, body === undefined ? {} : { body });
  expect(answer.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`).toBe(
    200,
  );
  const bare = path.split('?')[0] ?? '';
  const geojson = bare.endsWith('/search') || bare.endsWith('/items');
  expect(answer.headers.get('content-type')?.split(';')[0]).toBe(
    geojson ? 'application/geo+json' : 'application/json',
  );
  return answer.body;
}

async function refused(method: string, path: string, body?: unknown): Promise<void> {
  const answer = await call(method, path, body === undefined ? {} : { body });
  expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
}

const search = (params: Record<string, string>) =>
  fetched<Page>('GET', `${STAC}/search?${new URLSearchParams(params).toString()}`);
const searchByPost = (body: Json) => fetched<Page>('POST', `${STAC}/search`, body);

beforeAll(async () => {
  collection = randomUUID();
  const created = await call('POST', `${STAC}/collections`, {
    body: {
      type: 'Collection',
      stac_version: '1.0.0',
      id: collection,
      description: 'what the validator reads',
      license: 'CC-BY-4.0',
      extent: {
        spatial: { bbox: [[-180, -90, 180, 90]] },
        temporal: { interval: [['2020-01-01T00:00:00Z', null]] },
      },
      links: [],
    },
  });
  await expectCommand(created, 201, 'create the collection');
  const features = Array.from({ length: 24 }, (_, n) => ({
    type: 'Feature',
    stac_version: '1.0.0',
    id: randomUUID(),
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [n % 10, 45],
          [(n % 10) + 1, 45],
          [(n % 10) + 1, 46],
          [n % 10, 46],
          [n % 10, 45],
        ],
      ],
    },
    bbox: [n % 10, 45, (n % 10) + 1, 46],
    properties: {
      datetime: `2024-0${(n % 9) + 1}-01T10:00:00Z`,
      'eo:cloud_cover': n * 4,
      instruments: n % 3 === 0 ? ['msi'] : ['oli', 'tirs'],
      mission: n % 2 === 0 ? 'sentinel-2' : 'landsat-8',
    },
    links: [],
    assets: { visual: { href: `https://example.org/${n}.tif`, type: 'image/tiff', roles: ['visual'] } },
  }));
  const added = await call<{ ids: string[] }>('POST', `${STAC}/collections/${collection}/items`, {
    body: { type: 'FeatureCollection', features },
  });
  await expectCommand(added, 201, 'add the items');
  ids = features.map((feature) => feature.id);
  // More root-level children than a page of the search holds (10): /children must still list them all.
  for (let n = 0; n < 11; n += 1) {
    const extra = await call('POST', '/api/v1/portal/collections/create', {
      body: { title: `root child ${n}`, description: 'one of many', links: [] },
    });
    await expectCommand(extra, 201, 'create a root child');
  }
}, 120_000);

describe('core', () => {
  it('the landing page: a Catalog with the links the validator follows, the OpenAPI in its own type', async () => {
    const landing = await fetched<Json & { links: Link[]; conformsTo: string[] }>('GET', STAC);
    expect(landing.type).toBe('Catalog');
    expect(landing.conformsTo.some((uri) => /^https:\/\/api\.stacspec\.org\/(.+)\/core$/.test(uri))).toBe(
      true,
    );
    expect(linkOf(landing, 'root')?.type).toBe('application/json');
    expect(linkOf(landing, 'self')).toBeDefined();
    const desc = linkOf(landing, 'service-desc') as Link & { type: string };
    const answer = await fetch(desc.href, { headers: { accept: desc.type } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')?.split(';')[0]).toBe(desc.type.split(';')[0]);
    const doc = linkOf(landing, 'service-doc') as Link;
    expect(doc.type).toBe('text/html');
    const page = await fetch(doc.href);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')?.split(';')[0]).toBe('text/html');
    expect(await page.text()).toContain('<code>/api/v1/stac/search</code>');
    const searches = landing.links.filter((link) => link.rel === 'search');
    expect(searches.map((link) => link.method).sort()).toEqual(['GET', 'POST']);
    expect(new Set(searches.map((link) => link.href)).size).toBe(1);
    expect(linkOf(landing, 'conformance')?.href).toMatch(/\/conformance$/);
    expect(linkOf(landing, 'children')?.href).toMatch(/\/children$/);
  });
});

describe('collections and features', () => {
  it('self links equal the URL asked, 404 for what does not exist, items in GeoJSON', async () => {
    const landing = await fetched<{ links: Link[] }>('GET', STAC);
    const data = (linkOf(landing, 'data') as Link).href;
    expect((await call('GET', pathOf(`${data}/non-existent-collection`))).status).toBe(404);
    const all = await fetched<{ links: Link[]; collections: unknown[]; type?: string }>('GET', data);
    expect(linkOf(all, 'self')?.href).toBe(data);
    expect(all.type).toBeUndefined();
    const one = await fetched<{ links: Link[] }>('GET', `${data}/${collection}`);
    expect(linkOf(one, 'self')?.href).toBe(`${data}/${collection}`);
    for (const rel of ['root', 'parent']) expect(linkOf(one, rel)).toBeDefined();
    const items = (linkOf(one, 'items') as Link).href;
    expect((await call('GET', pathOf(`${items}/non-existent-item`))).status).toBe(404);
    const page = await fetched<Page>('GET', items);
    expect(linkOf(page, 'self')?.href).toBe(items);
    const first = page.features[0] as Feature;
    const self = (linkOf(first, 'self') as Link).href;
    // An item's own URL does not end in /items: the validator asks GeoJSON of it explicitly.
    const direct = await call<Feature>('GET', pathOf(self));
    expect(direct.headers.get('content-type')?.split(';')[0]).toBe('application/geo+json');
    expect(linkOf(direct.body, 'self')?.href).toBe(self);
    for (const rel of ['root', 'parent']) expect(linkOf(direct.body, rel)).toBeDefined();
    const next = linkOf(await fetched<Page>('GET', `${items}?limit=1`), 'next') as Link;
    expect(next.method ?? 'GET').toBe('GET');
    await fetched<Page>('GET', next.href);
  });
});

describe('item search', () => {
  it('accepts every limit up to a million (clamped) and refuses -1', async () => {
    for (const limit of [1, 2, 10, 10_000, 100_000, 1_000_000]) {
      await search({ limit: String(limit) });
      await searchByPost({ limit });
    }
    await refused('GET', `${STAC}/search?limit=-1`);
    await refused('POST', `${STAC}/search`, { limit: -1 });
  });

  it('bbox: two and three dimensions; refused: brackets, a string, south above north, other lengths, with intersects', async () => {
    await search({ bbox: '100.0,0.0,105.0,1.0' });
    await searchByPost({ bbox: [100.0, 0.0, 105.0, 1.0] });
    await search({ bbox: '100.0,0.0,0.0,105.0,1.0,1.0' });
    await searchByPost({ bbox: [100.0, 0.0, 0.0, 105.0, 1.0, 1.0] });
    await refused('GET', `${STAC}/search?bbox=${encodeURIComponent('[100.0, 0.0, 105.0, 1.0]')}`);
    await refused('POST', `${STAC}/search`, { bbox: '100.0, 0.0, 105.0, 1.0' });
    await refused('GET', `${STAC}/search?bbox=${encodeURIComponent('100.0, 1.0, 105.0, 0.0')}`);
    await refused('POST', `${STAC}/search`, { bbox: [100.0, 1.0, 105.0, 0.0] });
    for (const bbox of ['0', '0,0', '0,0,0', '0,0,0,1,1', '0,0,0,1,1,1,1']) {
      await refused('GET', `${STAC}/search?bbox=${bbox}`);
      await refused('POST', `${STAC}/search`, { bbox: bbox.split(',').map(Number) });
    }
    const polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [100.0, 0.0],
          [101.0, 0.0],
          [101.0, 1.0],
          [100.0, 1.0],
          [100.0, 0.0],
        ],
      ],
    };
    await refused(
      'GET',
      `${STAC}/search?bbox=0,0,1,1&intersects=${encodeURIComponent(JSON.stringify(polygon))}`,
    );
    await refused('POST', `${STAC}/search`, { bbox: [0, 0, 1, 1], intersects: polygon });
  });

  it('datetime: an item found by its own instant; the validator’s good and bad lists', async () => {
    const page = await search({ collections: collection });
    const instant = (page.features[0] as Feature).properties.datetime as string;
    expect((await search({ datetime: instant })).features.length).toBeGreaterThan(0);
    const good = [
      '1985-04-12T23:20:50.52Z',
      '1996-12-19T16:39:57-00:00',
      '1996-12-19T16:39:57+08:00',
      '../1985-04-12T23:20:50.52Z',
      '1985-04-12T23:20:50.52Z/..',
      '/1985-04-12T23:20:50.52Z',
      '1985-04-12T23:20:50.52Z/',
      '1985-04-12T23:20:50.52+01:00/1986-04-12T23:20:50.52+01:00',
      '1937-01-01T12:00:27.8710+01:00',
      '1985-04-12t23:20:50.000z',
      '2020-07-23T00:00:00.012345678Z',
    ];
    for (const datetime of good) await search({ datetime });
    const bad = [
      '/',
      '../..',
      '/..',
      '../',
      '/1984-04-12T23:20:50.52Z/1985-04-12T23:20:50.52Z',
      '1985-04-12',
      '1937-01-01T12:00:27.87+0100',
      '37-01-01T12:00:27.87Z',
      '1985-12-12T23:20:50.52',
      '21985-12-12T23:20:50.52Z',
      '1985-13-12T23:20:50.52Z',
      '1985-12-01T00:06:61.52Z',
      '1985-04-12T23:20:50.Z',
      '1985-04-12T23:20:50,52Z',
      '1986-04-12T23:20:50.52Z/1985-04-12T23:20:50.52Z',
    ];
    for (const datetime of bad)
      await refused('GET', `${STAC}/search?datetime=${encodeURIComponent(datetime)}`);
  });

  it('ids find exactly those items; ids do not override a bbox; collections by CSV', async () => {
    const two = ids.slice(0, 2);
    for (const found of [await search({ ids: two.join(',') }), await searchByPost({ ids: two })]) {
      expect(found.features.map((feature) => feature.id).sort()).toEqual([...two].sort());
    }
    const elsewhere = { ids: two[0] as string, collections: collection, bbox: '50,50,51,51' };
    expect((await search(elsewhere)).features).toEqual([]);
    const inCollection = await search({ collections: collection, limit: '100' });
    expect(inCollection.features.every((feature) => feature.collection === collection)).toBe(true);
  });

  it('intersects every geometry type, by GET (Python’s spaced JSON) and by POST', async () => {
    const geometries = [
      { type: 'Point', coordinates: [100.0, 0.0] },
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [100.0, 0.0],
            [101.0, 1.0],
          ],
          [
            [102.0, 2.0],
            [103.0, 3.0],
          ],
        ],
      },
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [100.0, 0.0] },
          {
            type: 'LineString',
            coordinates: [
              [101.0, 0.0],
              [102.0, 1.0],
            ],
          },
        ],
      },
    ];
    for (const geometry of geometries) {
      await search({ intersects: JSON.stringify(geometry).replaceAll(',', ', ').replaceAll(':', ': ') });
      await searchByPost({ intersects: geometry });
    }
  });

  it('POST pages: the next link is a POST whose body (or merge) asks for the next page', async () => {
    const first = await searchByPost({ limit: 1, collections: [collection] });
    const next = linkOf(first, 'next') as Link;
    expect(next.method).toBe('POST');
    const body = next.merge === true ? { limit: 1, collections: [collection], ...next.body } : next.body;
    const second = await fetched<Page>('POST', next.href, body);
    expect(second.features[0]?.id).not.toBe(first.features[0]?.id);
  });
});

describe('extensions', () => {
  it('filter: the validator’s CQL2, text by GET and JSON by POST, the draft `between` among them', async () => {
    const id = ids[0] as string;
    const texts = [
      'eo:cloud_cover >= 5 AND eo:cloud_cover < 10',
      'eo:cloud_cover > 50 OR eo:cloud_cover < 10 OR (eo:cloud_cover IS NULL AND eo:cloud_cover IS NULL)',
      `id='${id}' AND collection='${collection}'`,
      `NOT id='${id}'`,
      `collection <> '${collection}'`,
      "datetime >= TIMESTAMP('2021-04-08T04:39:23Z')",
      'eo:cloud_cover NOT BETWEEN 0 AND 50',
      "mission NOT LIKE 'sentinel%'",
      "T_INTERSECTS(datetime, INTERVAL('2020-11-11T00:00:00Z', '2020-11-12T00:00:00Z'))",
      'S_INTERSECTS(geometry,POLYGON((-77.0824 38.7886,-77.0189 38.7886,-77.0189 38.8351,-77.0824 38.8351,-77.0824 38.7886)))',
    ];
    for (const filter of texts) await search({ limit: '1', 'filter-lang': 'cql2-text', filter });
    const cloud = { property: 'eo:cloud_cover' };
    const jsons = [
      {
        op: 'or',
        args: [
          { op: 'isNull', args: [cloud] },
          { op: '>', args: [cloud, 50] },
        ],
      },
      { op: 'between', args: [cloud, [0, 50]] },
      { op: 'not', args: [{ op: 'between', args: [cloud, [0, 50]] }] },
      { op: 'like', args: [{ property: 'mission' }, 'sentinel%'] },
      { op: '=', args: [{ property: 'collection' }, 'sentinel-2-l2a'] },
    ];
    for (const filter of jsons) await searchByPost({ limit: 1, 'filter-lang': 'cql2-json', filter });
    // The draft `between` means what the 1.0 one does.
    const draft = await searchByPost({ limit: 100, collections: [collection], filter: jsons[1] });
    const current = await search({
      limit: '100',
      collections: collection,
      filter: 'eo:cloud_cover BETWEEN 0 AND 50',
    });
    expect(draft.features.map((feature) => feature.id).sort()).toEqual(
      current.features.map((feature) => feature.id).sort(),
    );
    expect(current.features.length).toBeGreaterThan(0);
  });

  it('fields: an include keeps it with type, stac_version, id and links; `fields: null` is refused', async () => {
    const first = async (fields: unknown) =>
      (await searchByPost({ limit: 1, collections: [collection], fields: fields })).features[0] as Json;
    const nested = await first({ exclude: ['properties'], include: ['properties.eo:cloud_cover'] });
    expect(Object.keys(nested).sort()).toEqual(['id', 'links', 'properties', 'stac_version', 'type']);
    expect(Object.keys(nested.properties as Json)).toEqual(['eo:cloud_cover']);
    for (const field of ['type', 'stac_version', 'id', 'geometry', 'bbox', 'links', 'assets']) {
      const kept = await first({ include: [field] });
      expect(kept[field]).toBeTruthy();
      expect(Object.keys(kept).length).toBeLessThanOrEqual(5);
    }
    const both = await first({ exclude: ['geometry'], include: ['geometry'] });
    expect(both.geometry).toBeTruthy();
    const excluded = await first({ exclude: ['geometry'] });
    expect(excluded.geometry).toBeUndefined();
    expect((excluded.properties as Json)['eo:cloud_cover']).toBeDefined();
    for (const include of [[], null]) {
      const fromDefault = await first({ exclude: ['geometry'], include });
      expect((fromDefault.properties as Json)['eo:cloud_cover']).toBeUndefined();
      expect(Object.keys(fromDefault).length).toBeGreaterThanOrEqual(5);
    }
    await refused('POST', `${STAC}/search`, { fields: null });
  });

  it('sort: by datetime either way, `collections` as one string in a POST', async () => {
    for (const sortby of ['properties.datetime', '+properties.datetime', '-properties.datetime']) {
      const page = await search({ sortby, limit: '100', collections: collection });
      const times = page.features.map((feature) => feature.properties.datetime as string);
      const sorted = [...times].sort();
      expect(times).toEqual(sortby.startsWith('-') ? sorted.reverse() : sorted);
    }
    for (const direction of ['asc', 'desc']) {
      await searchByPost({
        sortby: [{ field: 'properties.datetime', direction }],
        limit: 100,
        collections: collection,
      });
    }
  });

  it('query: numbers written as text compare as numbers; `in` on an array property', async () => {
    const cases: [Json, (value: unknown) => boolean][] = [
      [{ eq: '8' }, (value) => value === 8],
      [{ neq: '8' }, (value) => value !== 8],
      [{ lt: '10' }, (value) => (value as number) < 10],
      [{ gte: '52' }, (value) => (value as number) >= 52],
    ];
    for (const [operators, holds] of cases) {
      const query = { 'eo:cloud_cover': operators };
      const page = await search({ query: JSON.stringify(query), limit: '20', collections: collection });
      expect(page.features.length, JSON.stringify(query)).toBeGreaterThan(0);
      for (const feature of page.features) expect(holds(feature.properties['eo:cloud_cover'])).toBe(true);
      await searchByPost({ query, limit: 20, collections: collection });
    }
    const page = await search({
      query: JSON.stringify({ instruments: { in: ['msi'] } }),
      limit: '30',
      collections: collection,
    });
    expect(page.features.length).toBe(8);
    for (const feature of page.features) expect(feature.properties.instruments).toContain('msi');
  });
});

describe('transaction', () => {
  /** The validator's status rule for a write: exactly this status, and no media type for a 204. */
  async function written(method: string, path: string, status: number, body?: unknown): Promise<void> {
    const answer = await call(method, path, body === undefined ? {} : { body });
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
    if (status === 204) expect(answer.headers.get('content-type'), `${method} ${path}`).toBeNull();
    await expectCommand(answer, status, `${method} ${path}`);
  }

  /** An Item read back, in GeoJSON as the validator asks of it. */
  async function readItem(path: string): Promise<Feature> {
    const answer = await call<Feature>('GET', path);
    expect(answer.status, `GET ${path}`).toBe(200);
    expect(answer.headers.get('content-type')?.split(';')[0]).toBe('application/geo+json');
    return answer.body;
  }

  it('its sequence: delete if there, add, replace, patch, delete, each read back', async () => {
    const landing = await fetched<{ links: Link[] }>('GET', STAC);
    const collections = pathOf((linkOf(landing, 'data') as Link).href);
    const name = 'S2A_47XNF_20230423_0_L2A';
    const itemPath = `${collections}/${collection}/items/${name}`;
    const item = {
      type: 'Feature',
      stac_version: '1.0.0',
      id: name,
      collection,
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [99, 70],
            [100, 70],
            [100, 71],
            [99, 71],
            [99, 70],
          ],
        ],
      },
      bbox: [99, 70, 100, 71],
      properties: { datetime: '2023-04-23T04:35:16.021000Z', 'eo:cloud_cover': 0.38, remove_me: 'x' },
      links: [],
      assets: { visual: { href: 'https://example.org/visual.tif', type: 'image/tiff' } },
    };
    await written('DELETE', itemPath, 204);
    await written('POST', `${collections}/${collection}/items`, 201, item);
    const datetime = (await readItem(itemPath)).properties['datetime'];

    const { remove_me: _removed, ...kept } = item.properties;
    const replaced = { ...item, properties: { ...kept, 'eo:cloud_cover': '3.14', foo: 'bar' } };
    await written('PUT', itemPath, 204, replaced);
    const afterPut = await readItem(itemPath);
    expect(afterPut.properties).toMatchObject({ datetime, 'eo:cloud_cover': '3.14', foo: 'bar' });
    expect(afterPut.properties).not.toHaveProperty('remove_me');

    await written('PATCH', itemPath, 204, { properties: { 'eo:cloud_cover': '12.4', a_patch_field: 'bar' } });
    const afterPatch = await readItem(itemPath);
    expect(afterPatch.properties).toMatchObject({ datetime, 'eo:cloud_cover': '12.4', a_patch_field: 'bar' });

    await written('DELETE', itemPath, 204);
    expect((await call('GET', itemPath)).status).toBe(404);
  });
});

describe('pystac-client', () => {
  it("a collection's get_items() asks its items link with `collections` set to it", async () => {
    const items = `${STAC}/collections/${collection}/items`;
    const asked = await fetched<Page>('GET', `${items}?collections=${collection.toUpperCase()}&limit=30`);
    expect(asked.features.map((feature) => feature.id).sort()).toEqual([...ids].sort());
    const next = linkOf(await fetched<Page>('GET', `${items}?collections=${collection}&limit=5`), 'next');
    expect(next?.href).toContain(`collections=${collection}`);
    const another = '00000000-0000-4000-8000-000000000000';
    expect((await fetched<Page>('GET', `${items}?collections=${another}`)).features).toEqual([]);
  });
});

describe('children and browseable', () => {
  it("/children's first page holds what the landing page's child links answer", async () => {
    type Children = { links: Link[]; children: (Json & { id: string; links: Link[] })[] };
    // The stack is shared: another file may add a root child between the two reads, so look again.
    let named: string[] = [];
    let listed: Children = { links: [], children: [] };
    let childrenHref = '';
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const landing = await fetched<{ links: Link[] }>('GET', STAC);
      childrenHref = (linkOf(landing, 'children') as Link).href;
      named = landing.links
        .filter((link) => link.rel === 'child')
        .map((link) => link.href.split('/').at(-1) as string)
        .sort();
      listed = await fetched<Children>('GET', childrenHref);
      if (JSON.stringify(named) === JSON.stringify(listed.children.map((child) => child.id).sort())) break;
    }
    expect(named.length).toBeGreaterThan(10);
    expect(listed.children.map((child) => child.id).sort()).toEqual(named);
    expect(linkOf(listed, 'self')?.href).toBe(childrenHref);
    expect(linkOf(listed, 'root')).toBeDefined();
    const ours = listed.children.find((child) => child.id === collection);
    expect(ours).toBeDefined();
    expect(await fetched<Json>('GET', `${STAC}/collections/${collection}`)).toEqual(ours);
  });

  it('an item found by ids and its collection is exactly one', async () => {
    for (const id of ids.slice(0, 3)) {
      expect((await search({ ids: id, collections: collection })).features).toHaveLength(1);
    }
  });
});
