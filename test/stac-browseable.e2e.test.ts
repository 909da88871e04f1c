import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call, waitForPosition } from './support/http.js';
import { postNdjson } from './support/ndjson.js';
import { createPortalObject } from './support/stac-fixture.js';
import { expectShape, specCatalog, specCollection, specError } from './support/stac-schemas.js';

/**
 * Browseable: every item is reachable from the landing page by `child` and `item` links alone. A root
 * catalog of this file holds more children and more direct items than one page links (1,000), and a
 * collection more items than one page; a crawler from the landing page (following, at the root level,
 * only this file's catalog and the root's browse pages: the stack is shared) must reach every item
 * exactly once, and nothing the anonymous caller may not read.
 */

useSignedInCaller();

const PAGE = 1000;
let catalog: string;
let collection: string;
let hiddenItem: string;
const expectedItems = new Set<string>();

type Line = Record<string, unknown>;

/** Creates the objects of `lines` in one bulk request and answers the new ids, all of them 201. */
async function bulkCreate(lines: readonly Line[]): Promise<string[]> {
  const answer = await postNdjson(lines.map((line) => JSON.stringify(line)));
  expect(answer.status).toBe(200);
  const results = answer.lines.filter((line) => 'line' in line);
  expect(results.filter((result) => result['status'] !== 201).slice(0, 3)).toEqual([]);
  const summary = answer.lines.find((line) => line['done'] === true);
  if (typeof summary?.['position'] === 'string') await waitForPosition(summary['position']);
  return results.map((result) => String(result['id']));
}

const item = (parentId: string, n: number): Line => ({
  type: 'createItem',
  body: {
    title: `browse item ${n}`,
    description: 'browseable',
    links: [],
    parentId,
    visibility: 'public',
    datetime: '2024-01-01T00:00:00Z',
  },
});

beforeAll(async () => {
  catalog = await createPortalObject('catalogs', { title: 'Browseable root', visibility: 'public' });
  collection = await createPortalObject('collections', {
    title: 'Browseable collection',
    parentId: catalog,
    visibility: 'public',
  });
  const nested = await createPortalObject('catalogs', {
    title: 'Browseable nested',
    parentId: catalog,
    visibility: 'public',
  });
  // More than a page of children (empty catalogs), of items in the collection and of items directly
  // under the root catalog, and a few under a nested catalog.
  await bulkCreate(
    Array.from({ length: PAGE + 1 }, (_, n) => ({
      type: 'createCatalog',
      body: {
        title: `browse child ${n}`,
        description: 'empty',
        links: [],
        parentId: catalog,
        visibility: 'public',
      },
    })),
  );
  const inCollection = await bulkCreate(Array.from({ length: PAGE + 3 }, (_, n) => item(collection, n)));
  const direct = await bulkCreate(Array.from({ length: PAGE + 2 }, (_, n) => item(catalog, n)));
  const deeper = await bulkCreate(Array.from({ length: 3 }, (_, n) => item(nested, n)));
  for (const id of [...inCollection, ...direct, ...deeper]) expectedItems.add(id);
  hiddenItem = await createPortalObject('items', {
    title: 'browse hidden',
    parentId: collection,
    visibility: 'private',
    datetime: '2024-01-01T00:00:00Z',
  });
}, 600_000);

const STAC = '/api/v1/stac';
const pathOf = (href: string) => {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
};

interface Node {
  links: { rel: string; href: string }[];
}

describe('browseable', () => {
  it('reaches every item of the catalog exactly once from the landing page, by child and item links', async () => {
    const get = async (path: string): Promise<Node> => {
      const response = await call<Node>('GET', path, { as: 'anonymous' });
      expect(response.status, path).toBe(200);
      return response.body;
    };
    // The root level: this file's catalog, found among the landing page's child links or its browse pages.
    let root = await get(STAC);
    let found = false;
    for (let pages = 0; !found; pages += 1) {
      const children = root.links.filter((link) => link.rel === 'child').map((link) => pathOf(link.href));
      found = children.includes(`${STAC}/catalogs/${catalog}`);
      const more = children.find((path) => path.startsWith(`${STAC}/browse?`));
      if (!found) {
        expect(more, 'the catalog is not reachable from the landing page').toBeDefined();
        root = await get(more as string);
      }
      expect(pages).toBeLessThan(100);
    }

    const seenItems: string[] = [];
    const visited = new Set<string>();
    const queue = [`${STAC}/catalogs/${catalog}`];
    let browsePages = 0;
    while (queue.length > 0) {
      const path = queue.shift() as string;
      if (visited.has(path)) continue;
      visited.add(path);
      const node = await get(path);
      if (path.includes('/browse?')) browsePages += 1;
      expectShape(
        path.startsWith(`${STAC}/collections/`) && !path.includes('/browse') ? specCollection : specCatalog,
        node,
      );
      for (const link of node.links) {
        if (link.rel === 'child') queue.push(pathOf(link.href));
        if (link.rel === 'item') seenItems.push(pathOf(link.href).split('/').at(-1) as string);
      }
    }
    expect(seenItems.length, 'an item was linked twice').toBe(new Set(seenItems).size);
    expect(new Set(seenItems)).toEqual(expectedItems);
    expect(seenItems).not.toContain(hiddenItem);
    // Children past the first page, items past the first page, a collection's two pages at least.
    expect(browsePages).toBeGreaterThanOrEqual(4);
  }, 300_000);

  it('declares the browseable conformance class', async () => {
    const conformance = await call<{ conformsTo: string[] }>('GET', `${STAC}/conformance`);
    expect(conformance.body.conformsTo).toContain('https://api.stacspec.org/v1.0.0/browseable');
  });

  it('an item link of a browse page resolves to the item', async () => {
    const page = await call<Node>('GET', `${STAC}/collections/${collection}/browse`);
    expect(page.status).toBe(200);
    const links = page.body.links.filter((link) => link.rel === 'item');
    expect(links).toHaveLength(PAGE);
    for (const link of [links[0], links.at(-1)]) {
      const read = await call<{ id: string; collection?: string }>('GET', pathOf(link?.href ?? ''));
      expect(read.status).toBe(200);
      expect(read.body.collection).toBe(collection);
    }
    const next = page.body.links.filter((link) => link.rel === 'child');
    expect(next).toHaveLength(1);
  });

  it('refuses a kind a container does not hold, and a bad token', async () => {
    for (const path of [
      `${STAC}/browse?kind=items`,
      `${STAC}/collections/${collection}/browse?kind=children`,
      `${STAC}/catalogs/${catalog}/browse?kind=items&token=nope`,
      `${STAC}/catalogs/${catalog}/browse?kind=other`,
      `${STAC}/catalogs/${catalog}/browse?limit=5`,
    ]) {
      const response = await call('GET', path);
      expect(response.status, path).toBe(400);
      expectShape(specError, response.body);
    }
  });
});
