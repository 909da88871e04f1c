import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  breadcrumbsSchema,
  browserChildrenSchema,
  browserNodePageSchema,
  type BrowserChildren,
  type BrowserNode,
} from '@portal/contracts';
import {
  createMany,
  createInTurn,
  pageAll,
  rawGet,
  waitForProjection,
  type CreateCommand,
} from './support/browser-tree.js';
import {
  call,
  createCatalog,
  createCollection,
  expectCommand,
  expectMatchesContract,
} from './support/http.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

interface BrowserPage {
  items: BrowserNode[];
  next: string | null;
  links: { href: string }[];
}

/** A link's query: the part that names the page, whatever prefix the client called. */
const queryOf = (link: { href: string }) => new URL(link.href).search;

interface Crumb {
  id: string;
  kind: string;
  title: string;
  slug: string;
  path: string;
}

const children = (id: string, query = '') =>
  call<BrowserChildren>('GET', `/api/v1/browser/nodes/${id}/children${query}`);
const breadcrumbs = (id: string) =>
  call<{ items: Crumb[] }>('GET', `/api/v1/browser/nodes/${id}/breadcrumbs`);
const byPath = (path: string, query = '') =>
  call<BrowserChildren>('GET', `/api/v1/browser/path/${path}${query}`);

/** A unique, URL-safe title prefix per test, so root-level slugs never collide across tests. */
const unique = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

describe('browser: root, children, breadcrumbs and path of one tree', () => {
  it('answers each view of a small tree in one request, in the contract shape', async () => {
    const rootTitle = unique('Explorer');
    const root = await createCatalog({ title: rootTitle });
    const collection = await createCollection({ title: 'Zeta collection', parentId: root });
    const catalog = await createCatalog({ title: 'Alpha catalog', parentId: root });
    const leaf = await createCollection({ title: 'Leaf', parentId: catalog });

    const view = await children(root);
    expect(view.status).toBe(200);
    expectMatchesContract(browserChildrenSchema, view.body);
    expect(view.body.node).toMatchObject({
      id: root,
      kind: 'catalog',
      title: rootTitle,
      status: 'ready',
      parentId: null,
      depth: 1,
      childCount: 2,
      hasChildren: true,
    });
    // Kind, then title: the catalog before the collection although its title sorts first anyway.
    expect(view.body.items.map((node) => [node.id, node.kind, node.hasChildren])).toEqual([
      [catalog, 'catalog', true],
      [collection, 'collection', false],
    ]);
    const rootSlug = view.body.node.slug;
    expect(view.body.items[0]?.path).toBe(`${rootSlug}/alpha-catalog`);
    expect(view.body).toMatchObject({ next: null, links: [] });

    const crumbs = await breadcrumbs(leaf);
    expect(crumbs.status).toBe(200);
    expectMatchesContract(breadcrumbsSchema, crumbs.body);
    expect(crumbs.body.items).toEqual([
      { id: root, kind: 'catalog', title: rootTitle, slug: rootSlug, path: rootSlug },
      {
        id: catalog,
        kind: 'catalog',
        title: 'Alpha catalog',
        slug: 'alpha-catalog',
        path: `${rootSlug}/alpha-catalog`,
      },
      { id: leaf, kind: 'collection', title: 'Leaf', slug: 'leaf', path: `${rootSlug}/alpha-catalog/leaf` },
    ]);

    const found = await byPath(`${rootSlug}/alpha-catalog`);
    expect(found.status).toBe(200);
    expectMatchesContract(browserChildrenSchema, found.body);
    expect(found.body.node).toMatchObject({ id: catalog, path: `${rootSlug}/alpha-catalog`, depth: 2 });
    expect(found.body.items.map((node) => node.id)).toEqual([leaf]);

    // The root level holds it, with every alias answering the same page.
    const rootLevel = await pageAll<BrowserNode>('/api/v1/browser/root?limit=1000');
    expect(rootLevel.find((node) => node.id === root)).toMatchObject({ depth: 1, path: rootSlug });
    for (const alias of ['/browser/root', '/api/v1/portal/browser/']) {
      const response = await call<BrowserPage>('GET', `${alias}?limit=5`);
      expect(response.status, alias).toBe(200);
      expectMatchesContract(browserNodePageSchema, response.body);
      // Same page; its links stay under the prefix the client used, so only their queries must agree.
      const canonical = (await call<BrowserPage>('GET', '/api/v1/browser/root?limit=5')).body;
      const page = response.body;
      expect({ items: page.items, next: page.next }, alias).toEqual({
        items: canonical.items,
        next: canonical.next,
      });
      expect(page.links.map(queryOf), alias).toEqual(canonical.links.map(queryOf));
    }
    expect((await call('GET', `/browser/nodes/${root}/children`)).body).toEqual(view.body);
    expect((await call('GET', `/browser/nodes/${leaf}/breadcrumbs`)).body).toEqual(crumbs.body);
    expect((await call('GET', `/browser/path/${rootSlug}/alpha-catalog`)).body).toEqual(found.body);
  });

  it('sorts the root level by kind, then title, and pages it without gaps', async () => {
    const prefix = `Root order ${randomUUID().slice(0, 8)}`;
    const made = await createMany([
      { type: 'createCollection', body: { title: `${prefix} A`, description: 'x', links: [] } },
      { type: 'createCatalog', body: { title: `${prefix} C`, description: 'x', links: [] } },
      { type: 'createCatalog', body: { title: `${prefix} B`, description: 'x', links: [] } },
    ]);
    await waitForProjection(made.position);
    const pages: number[] = [];
    const all = await pageAll<BrowserNode>('/api/v1/browser/root?limit=7', (page) => {
      pages.push(page.items.length);
    });
    expect(new Set(all.map((node) => node.id)).size).toBe(all.length);
    expect(all.every((node) => node.depth === 1 && node.parentId === null)).toBe(true);
    const ours = all.filter((node) => node.title.startsWith(prefix)).map((node) => node.title);
    expect(ours).toEqual([`${prefix} B`, `${prefix} C`, `${prefix} A`]);
    const order = all.map((node) => [node.kind, node.title, node.id].join('\u0000'));
    expect(order).toEqual([...order].sort());
    expect(pages.slice(0, -1).every((size) => size === 7)).toBe(true);
  });

  it('filters children by kind and status, sorts them every way, and refuses a cursor of another order', async () => {
    const parent = await createCatalog({ title: unique('Sorting parent') });
    const made = await createInTurn(
      ['Delta', 'alpha', 'Charlie', 'bravo', 'Echo'].map((title, index): CreateCommand => ({
        type: index % 2 === 0 ? 'createCatalog' : 'createCollection',
        body: { title, description: 'x', links: [], parentId: parent },
      })),
    );
    await waitForProjection(made.position);
    const titles = async (query: string) => {
      const response = await children(parent, query);
      expect(response.status, query).toBe(200);
      return response.body.items.map((node) => node.title);
    };
    expect(await titles('')).toEqual(['Charlie', 'Delta', 'Echo', 'alpha', 'bravo']);
    expect(await titles('?sort=title')).toEqual(['Charlie', 'Delta', 'Echo', 'alpha', 'bravo']);
    expect(await titles('?sort=title&order=desc')).toEqual(['bravo', 'alpha', 'Echo', 'Delta', 'Charlie']);
    expect(await titles('?sort=createdAt')).toEqual(['Delta', 'alpha', 'Charlie', 'bravo', 'Echo']);
    expect(await titles('?sort=createdAt&order=desc')).toEqual([
      'Echo',
      'bravo',
      'Charlie',
      'alpha',
      'Delta',
    ]);
    expect(await titles('?kind=collection')).toEqual(['alpha', 'bravo']);
    expect(await titles('?kind=catalog,item&sort=title&order=desc')).toEqual(['Echo', 'Delta', 'Charlie']);
    expect(await titles('?kind=catalog&kind=collection&status=ready&limit=2')).toEqual(['Charlie', 'Delta']);
    expect(await titles('?status=failed,uploading')).toEqual([]);

    // A title change moves the child in the updatedAt order.
    const alpha = (await children(parent, '?kind=collection')).body.items[0]?.id ?? '';
    const renamed = await call('PATCH', `/api/v1/portal/items/${alpha}`, { body: { title: 'alpha two' } });
    await expectCommand(renamed, 200, 'rename');
    expect((await titles('?sort=updatedAt&order=desc'))[0]).toBe('alpha two');

    const first = await children(parent, '?sort=title&limit=2');
    expect(first.body.next).not.toBeNull();
    const link = new URL(first.body.links[0]?.href ?? '');
    expect(link.pathname).toBe(`/api/v1/browser/nodes/${parent}/children`);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({ sort: 'title', order: 'asc', limit: '2' });
    const followed = await call<BrowserChildren>('GET', `${link.pathname}${link.search}`);
    expect(followed.body.items.map((node) => node.title)).toEqual(['Echo', 'alpha two']);

    const mismatch = await children(parent, `?sort=updatedAt&cursor=${first.body.next ?? ''}`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ code: 'CURSOR_ORDER_MISMATCH' });
    for (const query of [
      '?cursor=bm9wZQ',
      '?sort=name',
      '?order=up',
      '?kind=folder',
      '?limit=0',
      '?status=',
    ]) {
      const response = await children(parent, query);
      expect(response.status, query).toBe(400);
      expect(typeof (response.body as unknown as { message: unknown }).message, query).toBe('string');
    }
  });

  it('answers 404 for an unknown or deleted node, 400 for a malformed id and 405 with Allow', async () => {
    const gone = await createCatalog({ title: unique('Gone') });
    await expectCommand(await call('DELETE', `/api/v1/portal/items/${gone}`), 200, 'delete');
    for (const id of [randomUUID(), gone]) {
      expect((await children(id)).status).toBe(404);
      expect((await breadcrumbs(id)).status).toBe(404);
    }
    expect((await children('not-a-uuid')).status).toBe(400);
    expect((await breadcrumbs('not-a-uuid')).status).toBe(400);
    const wrongMethod = await call('POST', '/api/v1/browser/root');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    expect((await call('DELETE', `/browser/nodes/${gone}/children`)).status).toBe(405);
    expect((await call('GET', '/api/v1/browser/nowhere')).status).toBe(404);
  });
});

describe('browser: path lookup', () => {
  it('resolves percent-encoded Unicode titles, and names the first unknown segment in a 404', async () => {
    const rootTitle = `地理データ ${randomUUID().slice(0, 6)}`;
    const root = await createCatalog({ title: rootTitle });
    const child = await createCollection({ title: 'Café Ünïcode', parentId: root });
    const rootSlug = (await children(root)).body.node.slug;
    expect(rootSlug.startsWith('地理データ-')).toBe(true);

    const encoded = `${encodeURIComponent(rootSlug)}/cafe-unicode`;
    const found = await byPath(encoded);
    expect(found.status).toBe(200);
    expect(found.body.node).toMatchObject({ id: child, path: `${rootSlug}/cafe-unicode` });
    // Decomposed (NFD) input finds the NFC slug.
    const decomposed = await byPath(encodeURIComponent(rootSlug.normalize('NFD')));
    expect(decomposed.body.node.id).toBe(root);

    const missing = await byPath(`${encodeURIComponent(rootSlug)}/cafe-unicode/nothing/below`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'PATH_NOT_FOUND' });
    expect((missing.body as unknown as { message: string }).message).toBe(
      `path segment 3 "nothing" names no node under "${rootSlug}/cafe-unicode"`,
    );
    const unknownRoot = await byPath(`no-such-root-${randomUUID()}`);
    expect(unknownRoot.status).toBe(404);
    expect((unknownRoot.body as unknown as { message: string }).message).toMatch(
      /segment 1 .* at the root level/,
    );
  });

  it('answers 400 for empty, "." and ".." segments, malformed escapes and paths deeper than the tree', async () => {
    const root = await createCatalog({ title: unique('Dots') });
    const slug = (await children(root)).body.node.slug;
    for (const path of [
      `${slug}//x`,
      `${slug}/`,
      `${slug}/./x`,
      `${slug}/../${slug}`,
      `${slug}/%2E%2E`,
      '%2e',
      `${slug}/%ZZ`,
      `${slug}/%00`,
      Array.from({ length: 33 }, () => slug).join('/'),
    ]) {
      // Sent as written: fetch would resolve the dot segments before they leave the client.
      const response = await rawGet(`/api/v1/browser/path/${path}`);
      expect(response.status, path).toBe(400);
      expect(response.body, path).toMatchObject({ code: 'INVALID_PATH' });
    }
    expect((await call('GET', '/api/v1/browser/path/')).status).toBe(400);
    expect((await call('GET', '/api/v1/browser/path')).status).toBe(400);
  });

  it('answers the first page of children and continues at the children endpoint', async () => {
    const root = await createCatalog({ title: unique('Paged') });
    const made = await createMany(
      Array.from({ length: 5 }, (_, index): CreateCommand => ({
        type: 'createCollection',
        body: { title: `Child ${index}`, description: 'x', links: [], parentId: root },
      })),
      1,
    );
    await waitForProjection(made.position);
    const slug = (await children(root)).body.node.slug;
    const first = await byPath(slug, '?limit=2&sort=title&order=desc');
    expect(first.body.items.map((node) => node.title)).toEqual(['Child 4', 'Child 3']);
    const next = new URL(first.body.links[0]?.href ?? '');
    expect(next.pathname).toBe(`/api/v1/browser/nodes/${root}/children`);
    const rest = await pageAll<BrowserNode>(`${next.pathname}?limit=2&sort=title&order=desc`);
    expect(rest.map((node) => node.title)).toEqual(['Child 4', 'Child 3', 'Child 2', 'Child 1', 'Child 0']);
    const continued = await call<BrowserChildren>('GET', `${next.pathname}${next.search}`);
    expect(continued.body.items.map((node) => node.title)).toEqual(['Child 2', 'Child 1']);
    // Under the alias prefix the link stays under the alias.
    const aliased = await call<BrowserChildren>('GET', `/browser/path/${slug}?limit=1`);
    expect(new URL(aliased.body.links[0]?.href ?? '').pathname).toBe(`/browser/nodes/${root}/children`);
  });
});

describe('browser: the tree the projector maintains', () => {
  it('serves a tree 32 levels deep: breadcrumbs, path and children at the deepest level', async () => {
    const ids: string[] = [];
    let parentId: string | undefined;
    for (let level = 1; level <= 32; level += 1) {
      const title = level === 1 ? unique('Deep') : `Level ${level}`;
      const id: string = await createCatalog({ title, ...(parentId === undefined ? {} : { parentId }) });
      ids.push(id);
      parentId = id;
    }
    const deepest = ids.at(-1) ?? '';
    const crumbs = await breadcrumbs(deepest);
    expect(crumbs.status).toBe(200);
    expect(crumbs.body.items.map((crumb) => crumb.id)).toEqual(ids);
    const path = crumbs.body.items.at(-1)?.path ?? '';
    expect(path.split('/')).toHaveLength(32);
    expect(path.endsWith('/level-31/level-32')).toBe(true);

    const found = await byPath(path);
    expect(found.status).toBe(200);
    expect(found.body.node).toMatchObject({ id: deepest, depth: 32, path, hasChildren: false });
    expect(found.body.items).toEqual([]);
    const above = await children(ids[30] ?? '');
    expect(above.body.items.map((node) => [node.id, node.depth, node.path])).toEqual([[deepest, 32, path]]);
    // A 33rd level is refused by the command side, so the read side never sees one.
    const tooDeep = await call('POST', '/api/v1/portal/catalogs/create', {
      body: { title: 'Level 33', description: 'x', links: [], parentId: deepest },
    });
    expect(tooDeep.status).toBe(409);
  });

  it('moving a subtree updates the breadcrumbs, paths and counts of every descendant', async () => {
    const from = await createCatalog({ title: unique('From') });
    const to = await createCatalog({ title: unique('To') });
    const moving = await createCatalog({ title: 'Moving', parentId: from });
    const middle = await createCatalog({ title: 'Middle', parentId: moving });
    const leaves = [
      await createCollection({ title: 'Leaf one', parentId: middle }),
      await createCollection({ title: 'Leaf two', parentId: middle }),
    ];
    // The new parent already has a child slugged `moving`: the moved object becomes `moving-2`.
    await createCatalog({ title: 'Moving', parentId: to });
    const [fromSlug, toSlug] = [(await children(from)).body.node.slug, (await children(to)).body.node.slug];
    const oldPath = `${fromSlug}/moving/middle/leaf-one`;
    expect((await byPath(oldPath)).body.node.id).toBe(leaves[0]);

    const moved = await call('POST', `/api/v1/portal/items/${moving}/move`, { body: { parentId: to } });
    await expectCommand(moved, 200, 'move');

    for (const [index, leaf] of leaves.entries()) {
      const slug = index === 0 ? 'leaf-one' : 'leaf-two';
      const crumbs = await breadcrumbs(leaf);
      expect(crumbs.body.items.map((crumb) => crumb.id)).toEqual([to, moving, middle, leaf]);
      expect(crumbs.body.items.map((crumb) => crumb.path)).toEqual([
        toSlug,
        `${toSlug}/moving-2`,
        `${toSlug}/moving-2/middle`,
        `${toSlug}/moving-2/middle/${slug}`,
      ]);
      const found = await byPath(`${toSlug}/moving-2/middle/${slug}`);
      expect(found.body.node).toMatchObject({ id: leaf, depth: 4 });
    }
    const gone = await byPath(oldPath);
    expect(gone.status).toBe(404);
    expect((gone.body as unknown as { message: string }).message).toContain('segment 2 "moving"');
    const middleView = await children(middle);
    expect(middleView.body.node).toMatchObject({ depth: 3, path: `${toSlug}/moving-2/middle` });
    expect(middleView.body.items.map((node) => node.path)).toEqual([
      `${toSlug}/moving-2/middle/leaf-one`,
      `${toSlug}/moving-2/middle/leaf-two`,
    ]);
    expect((await children(from)).body.node).toMatchObject({ childCount: 0, hasChildren: false });
    expect((await children(to)).body.node).toMatchObject({ childCount: 2, hasChildren: true });

    // A recursive delete takes the whole subtree out of every view at once.
    await expectCommand(
      await call('DELETE', `/api/v1/portal/items/${moving}?recursive=true`),
      200,
      'recursive delete',
    );
    expect((await breadcrumbs(leaves[0] ?? '')).status).toBe(404);
    expect((await byPath(`${toSlug}/moving-2`)).status).toBe(404);
    expect((await children(to)).body.node.childCount).toBe(1);
  });

  it('gives two siblings with the same title distinct slugs, each reachable by path', async () => {
    const parent = await createCatalog({ title: unique('Twins') });
    const first = await createCollection({ title: 'Same Title', parentId: parent });
    const second = await createCollection({ title: 'Same title!', parentId: parent });
    const view = await children(parent, '?sort=createdAt');
    expect(view.body.items.map((node) => [node.id, node.slug])).toEqual([
      [first, 'same-title'],
      [second, 'same-title-2'],
    ]);
    const slug = view.body.node.slug;
    expect((await byPath(`${slug}/same-title`)).body.node.id).toBe(first);
    expect((await byPath(`${slug}/same-title-2`)).body.node.id).toBe(second);
    // Two root-level twins too.
    const title = unique('Root twin');
    const rootTwins = [await createCatalog({ title }), await createCatalog({ title })];
    const slugs = await Promise.all(rootTwins.map(async (id) => (await children(id)).body.node.slug));
    expect(new Set(slugs).size).toBe(2);
    expect((await byPath(slugs[1] ?? '')).body.node.id).toBe(rootTwins[1]);
  });
});
