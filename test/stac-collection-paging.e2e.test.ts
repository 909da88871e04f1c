import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { createPortalObject } from './support/stac-fixture.js';
import { expectShape, linkOf, specChildren, specCollections } from './support/stac-schemas.js';

/**
 * `prev` links on `/collections` (under each collection sort) and on a catalog's `/children`: paged
 * forward to the end and back to the start, each page reached through `prev` must equal the page reached
 * forward, and `next` from it must lead to the page it came from. The collections carry a keyword only
 * this run holds (`q`), and the children are a catalog of this file's own, so the stack's other
 * objects never enter the lists.
 */

useSignedInCaller();

const TAG = `zp${randomBytes(5).toString('hex')}`;
let catalog = '';
let collectionIds: string[] = [];
let childIds: string[] = [];

beforeAll(async () => {
  catalog = await createPortalObject('catalogs', { title: 'Collection paging' });
  // A second root-level catalog: the root's children then fill two pages of one.
  await createPortalObject('catalogs', { title: 'Collection paging, second root' });
  collectionIds = [];
  childIds = [];
  for (let n = 0; n < 11; n += 1) {
    const start = new Date(Date.UTC(2016 + (n % 3), 0, 1)).toISOString();
    const id = await createPortalObject('collections', {
      title: `Paged ${'ABC'[n % 3]}`,
      parentId: catalog,
      keywords: [TAG],
      ...(n % 4 === 0 ? {} : { license: n % 2 === 0 ? 'MIT' : 'CC0-1.0' }),
      extent: {
        spatial: { bbox: [[-10, -10, 10, 10]] },
        temporal: { interval: [[start, n % 3 === 0 ? null : '2024-01-01T00:00:00Z']] },
      },
    });
    collectionIds.push(id);
    childIds.push(id);
    // Catalogs among the children too: `/children` lists both kinds.
    if (n % 3 === 0) {
      childIds.push(await createPortalObject('catalogs', { title: `Paged catalog ${n}`, parentId: catalog }));
    }
  }
}, 120_000);

interface Page {
  readonly ids: string[];
  readonly next: string | null;
  readonly prev: string | null;
}

const pathOf = (href: string | undefined) =>
  href === undefined ? null : `${new URL(href).pathname}${new URL(href).search}`;

async function fetchPage(path: string, list: 'collections' | 'children'): Promise<Page> {
  const answer = await call<{
    collections?: { id: string }[];
    children?: { id: string }[];
    links: { rel: string; href: string }[];
  }>('GET', path);
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  expectShape(list === 'collections' ? specCollections : specChildren, answer.body);
  const rows = (list === 'collections' ? answer.body.collections : answer.body.children) ?? [];
  return {
    ids: rows.map((row) => row.id),
    next: pathOf(linkOf(answer.body, 'next')?.href),
    prev: pathOf(linkOf(answer.body, 'prev')?.href),
  };
}

/** Forward to the end, then back to the start through `prev`, each page equal to its forward twin. */
async function forwardAndBack(first: string, list: 'collections' | 'children'): Promise<string[]> {
  const forward: Page[] = [];
  let path: string | null = first;
  while (path !== null) {
    const page = await fetchPage(path, list);
    forward.push(page);
    path = page.next;
    if (forward.length > 50) throw new Error('the paging does not end');
  }
  expect(forward.length).toBeGreaterThan(2);
  // Every page but the first has a prev link.
  expect(forward.map((page) => page.prev !== null)).toEqual(forward.map((_, index) => index > 0));
  let index = forward.length - 1;
  let page = forward[index] as Page;
  while (index > 0) {
    expect(page.prev).not.toBeNull();
    page = await fetchPage(page.prev as string, list);
    index -= 1;
    expect(page.ids, `page ${index} through prev`).toEqual((forward[index] as Page).ids);
    // From a page reached backwards, next leads to the page it came from.
    expect(page.next).not.toBeNull();
    const again = await fetchPage(page.next as string, list);
    expect(again.ids).toEqual((forward[index + 1] as Page).ids);
  }
  // Back at the start: no prev link, as on the first page.
  expect(page.prev).toBeNull();
  return forward.flatMap((one) => one.ids);
}

describe('prev links on /collections and /children', () => {
  const sorts = [null, '-title', '+end_datetime,-license', '-datetime', '+description,+title', '-id'];
  it.each(sorts)('/collections, sortby %s: forward to the end and back', async (sortby) => {
    const query = new URLSearchParams({ q: TAG, limit: '3', ...(sortby === null ? {} : { sortby }) });
    const all = await forwardAndBack(`/api/v1/stac/collections?${query.toString()}`, 'collections');
    expect([...all].sort()).toEqual([...collectionIds].sort());
    if (sortby === null) expect(all).toEqual(collectionIds);
  });

  it("a catalog's /children: forward to the end and back, oldest first", async () => {
    const all = await forwardAndBack(`/api/v1/stac/catalogs/${catalog}/children?limit=4`, 'children');
    expect(all).toEqual(childIds);
  });

  it('the root /children: the second page links back to the first', async () => {
    const first = await fetchPage('/api/v1/stac/children?limit=1', 'children');
    expect(first.prev).toBeNull();
    expect(first.next).not.toBeNull();
    const second = await fetchPage(first.next as string, 'children');
    expect(second.prev).not.toBeNull();
    const back = await fetchPage(second.prev as string, 'children');
    expect(back.ids).toEqual(first.ids);
  });

  it("a token of one catalog's children continues no other list of children", async () => {
    const first = await fetchPage(`/api/v1/stac/catalogs/${catalog}/children?limit=2`, 'children');
    const token = new URL(`http://x${first.next as string}`).searchParams.get('token') as string;
    const elsewhere = await call<{ code?: string; message?: string }>(
      'GET',
      `/api/v1/stac/children?limit=2&token=${encodeURIComponent(token)}`,
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.code).toBe('INVALID_TOKEN');
    const again = await call(
      'GET',
      `/api/v1/stac/catalogs/${catalog}/children?limit=2&token=${encodeURIComponent(token)}`,
    );
    expect(again.status).toBe(200);
  });
});
