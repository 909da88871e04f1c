import { beforeAll, describe, expect, it, inject } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { createPortalObject } from './support/stac-fixture.js';

/**
 * Requirements of the declared conformance classes that the other suites did not check, each named
 * after the text that states it: the media types of the GeoJSON class, the link relations item search
 * and OGC API Features require, and the default page size. (docs/stac.md, "Conformance classes", lists
 * which suite checks what.)
 */

useSignedInCaller();

const STAC = '/api/v1/stac';
let collection = '';
let item = '';

interface Linked {
  links: { rel: string; href: string; type?: string; method?: string }[];
}

beforeAll(async () => {
  collection = await createPortalObject('collections', { title: 'STAC conformance collection' });
  // More than the default page of 10, so the default limit shows.
  const ids = await Promise.all(
    Array.from({ length: 12 }, (_, n) =>
      createPortalObject('items', {
        title: `Conformance item ${n}`,
        parentId: collection,
        bbox: [n, 0, n + 1, 1],
        datetime: `2024-01-${String(n + 1).padStart(2, '0')}T00:00:00Z`,
      }),
    ),
  );
  item = ids[0] ?? '';
}, 60_000);

/** A link of a body, with its `type` (the suites' shared helper reads only `rel` and `href`). */
const linkOf = (body: Linked, rel: string) => body.links.find((link) => link.rel === rel);

const absolute = (path: string) => `${inject('baseUrl')}${path}`;
const GEOJSON = /^application\/geo\+json/;

describe('GeoJSON (ogcapi-features-1 conf/geojson)', () => {
  it('item pages and items are served as application/geo+json', async () => {
    for (const [method, path, body] of [
      ['GET', `${STAC}/search?collections=${collection}`, undefined],
      ['POST', `${STAC}/search`, { collections: [collection] }],
      ['GET', `${STAC}/collections/${collection}/items`, undefined],
      ['GET', `${STAC}/collections/${collection}/items/${item}`, undefined],
    ] as const) {
      const answer = await call(method, path, body === undefined ? {} : { body });
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-type'), `${method} ${path}`).toMatch(GEOJSON);
    }
  });
});

describe('link relations', () => {
  it('item search: the landing page links search by GET and POST, typed application/geo+json', async () => {
    const landing = await call<Linked>('GET', STAC);
    const searches = landing.body.links.filter((link) => link.rel === 'search');
    expect(searches).toHaveLength(2);
    for (const link of searches) expect(link.type).toBe('application/geo+json');
  });

  it('OGC API Features: a page of items links itself, a feature its collection; a collection its items', async () => {
    const page = await call<Linked>('GET', `${STAC}/collections/${collection}/items?limit=5`);
    const self = linkOf(page.body, 'self')?.href ?? '';
    expect(self.startsWith(absolute(`${STAC}/collections/${collection}/items`)), self).toBe(true);
    expect(linkOf(page.body, 'next')?.type).toBe('application/geo+json');
    const feature = await call<Linked>('GET', `${STAC}/collections/${collection}/items/${item}`);
    expect(linkOf(feature.body, 'self')?.href).toBe(
      absolute(`${STAC}/collections/${collection}/items/${item}`),
    );
    expect(linkOf(feature.body, 'collection')?.href).toBe(absolute(`${STAC}/collections/${collection}`));
    const described = await call<Linked>('GET', `${STAC}/collections/${collection}`);
    const items = linkOf(described.body, 'items');
    expect(items?.href).toBe(absolute(`${STAC}/collections/${collection}/items`));
    expect(items?.type).toBe('application/geo+json');
    const list = await call<Linked>('GET', `${STAC}/collections?limit=1`);
    expect(linkOf(list.body, 'self')).toBeDefined();
    expect(linkOf(list.body, 'root')?.href).toBe(absolute(STAC));
  });
});

describe('limit (ogcapi-features-1 /req/core/fc-limit-definition, STAC item search)', () => {
  it("is 10 when absent, on the search and on a collection's items", async () => {
    for (const path of [
      `${STAC}/search?collections=${collection}`,
      `${STAC}/collections/${collection}/items`,
    ]) {
      const page = await call<{ features: unknown[] }>('GET', path);
      expect(page.body.features, path).toHaveLength(10);
    }
  });
});
