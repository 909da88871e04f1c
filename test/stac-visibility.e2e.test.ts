import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, signUp, type SignedInUser } from './support/auth.js';
import { call } from './support/http.js';
import { createPortalObject, pageToEnd } from './support/stac-fixture.js';

/**
 * A private object never appears in any STAC answer to a caller who may not read it: not as a
 * collection, a child, a `child`/`item` link, a search result or a collection's item, and asking for it
 * by id answers as for an id that does not exist.
 *
 * Organization A: an owner and a viewer; an author (editor) who owns private objects. In a public
 * catalog: a public collection with a public item, a private item (the author's) and an `org` item; a
 * private collection with a public-flagged item (private through its parent); a private item directly
 * under the catalog. Organization B: an outsider.
 */

let owner: SignedInUser;
let viewer: SignedInUser;
let author: SignedInUser;
let outsider: SignedInUser;
const ids: Record<string, string> = {};

const as = (user: SignedInUser | null) => (user ? { headers: user.headers } : { as: 'anonymous' as const });

beforeAll(async () => {
  owner = await signUp({ name: 'STAC owner' });
  viewer = await addMember(owner, await signUp({ name: 'STAC viewer' }), 'viewer');
  author = await addMember(owner, await signUp({ name: 'STAC author' }), 'editor');
  outsider = await signUp({ name: 'STAC outsider' });
  const by = (user: SignedInUser) => ({ headers: user.headers });
  const item = { bbox: [5, 5, 6, 6], datetime: '2024-05-01T00:00:00Z' };

  ids.catalog = await createPortalObject(
    'catalogs',
    { title: 'Vis catalog', visibility: 'public' },
    by(owner),
  );
  ids.collection = await createPortalObject(
    'collections',
    { title: 'Vis public collection', parentId: ids.catalog, visibility: 'public' },
    by(owner),
  );
  ids.publicItem = await createPortalObject(
    'items',
    { title: 'Vis public item', parentId: ids.collection, visibility: 'public', ...item },
    by(owner),
  );
  ids.privateItem = await createPortalObject(
    'items',
    { title: 'Vis private item', parentId: ids.collection, visibility: 'private', ...item },
    by(author),
  );
  ids.orgItem = await createPortalObject(
    'items',
    { title: 'Vis org item', parentId: ids.collection, visibility: 'org', ...item },
    by(owner),
  );
  ids.privateCollection = await createPortalObject(
    'collections',
    { title: 'Vis private collection', parentId: ids.catalog, visibility: 'private' },
    by(author),
  );
  ids.itemInPrivate = await createPortalObject(
    'items',
    { title: 'Vis item in private', parentId: ids.privateCollection, visibility: 'public', ...item },
    by(author),
  );
  ids.privateCatalogItem = await createPortalObject(
    'items',
    { title: 'Vis private catalog item', parentId: ids.catalog, visibility: 'private', ...item },
    by(author),
  );
}, 120_000);

/** Every STAC answer a caller can get about this portal, as text, to look for ids in. */
async function everythingSeenBy(user: SignedInUser | null): Promise<string> {
  const options = as(user);
  const texts: string[] = [];
  const get = async (path: string) => {
    const answer = await call('GET', path, options);
    expect(answer.status, path).toBe(200);
    texts.push(JSON.stringify(answer.body));
  };
  await get('/api/v1/stac');
  await get(`/api/v1/stac/catalogs/${ids.catalog}`);
  await get(`/api/v1/stac/catalogs/${ids.catalog}/children?limit=1000`);
  await get(`/api/v1/stac/collections/${ids.collection}`);
  for (const list of [
    '/api/v1/stac/collections?limit=1000',
    '/api/v1/stac/children?limit=1000',
    // Collection search, a page at a time: `next` carries the search.
    '/api/v1/stac/collections?q=vis&bbox=0,0,10,10&datetime=2000-01-01T00:00:00Z/..&limit=1',
  ]) {
    let path: string | null = list;
    while (path !== null) {
      const answer: { body: { links: { rel: string; href: string }[] } } = await call('GET', path, options);
      texts.push(JSON.stringify(answer.body));
      const next: { href: string } | undefined = answer.body.links.find((link) => link.rel === 'next');
      path = next ? new URL(next.href).pathname + new URL(next.href).search : null;
    }
  }
  const searches = [
    { method: 'GET' as const, path: `/api/v1/stac/collections/${ids.collection}/items?limit=1` },
    { method: 'GET' as const, path: '/api/v1/stac/search?bbox=4,4,7,7&limit=1000' },
    { method: 'POST' as const, path: '/api/v1/stac/search', body: { bbox: [4, 4, 7, 7], limit: 2 } },
    { method: 'POST' as const, path: '/api/v1/stac/search', body: { ids: Object.values(ids), limit: 2 } },
    { method: 'GET' as const, path: `/api/v1/stac/search?ids=${Object.values(ids).join(',')}` },
    // The extensions: free text, query, sort (its tokens carry the last item's keys) and fields.
    { method: 'GET' as const, path: '/api/v1/stac/search?q=vis&sortby=collection,-title&limit=1' },
    {
      method: 'POST' as const,
      path: '/api/v1/stac/search',
      body: { q: 'vis', sortby: [{ field: 'collection', direction: 'desc' }], limit: 1 },
    },
    {
      method: 'POST' as const,
      path: '/api/v1/stac/search',
      body: {
        query: { title: { startsWith: 'VIS' } },
        sortby: [{ field: 'title', direction: 'asc' }],
        limit: 1,
      },
    },
    {
      method: 'GET' as const,
      path: `/api/v1/stac/collections/${ids.collection}/items?q=vis&sortby=-title&limit=1`,
    },
  ];
  for (const search of searches) {
    const { pages } = await pageToEnd(search, options);
    // `self` and `next` repeat the request (the ids asked for): what the answer tells is the rest, and
    // the keys a `next` token carries (decoded: a hidden collection's id must not travel in it either).
    const told = pages.map((page) => ({
      ...page,
      links: page.links.filter((link) => link.rel !== 'self' && link.rel !== 'next'),
    }));
    texts.push(...told.map((page) => JSON.stringify(page)));
    for (const page of pages) {
      const next = page.links.find((link) => link.rel === 'next') as
        { href: string; body?: { token?: string } } | undefined;
      const token = next?.body?.token ?? (next ? new URL(next.href).searchParams.get('token') : null);
      if (token) texts.push(Buffer.from(token, 'base64url').toString('utf8'));
    }
  }
  // Fields: what each item keeps is still only what the caller may read.
  const cut = await pageToEnd(
    {
      method: 'POST',
      path: '/api/v1/stac/search',
      body: { q: 'vis', fields: { include: ['id', 'collection', 'properties.title'] }, limit: 2 },
    },
    options,
    true,
  );
  texts.push(...cut.pages.map((page) => JSON.stringify(page.features)));
  return texts.join('\n');
}

const hiddenFromOthers = () => [
  ids.privateItem,
  ids.privateCollection,
  ids.itemInPrivate,
  ids.privateCatalogItem,
];

describe('what each caller finds through STAC', () => {
  it('anonymous: public objects only', async () => {
    const seen = await everythingSeenBy(null);
    for (const id of [ids.catalog, ids.collection, ids.publicItem]) expect(seen).toContain(id);
    for (const id of [...hiddenFromOthers(), ids.orgItem]) expect(seen).not.toContain(id);
  });

  it('another organization: public objects only', async () => {
    const seen = await everythingSeenBy(outsider);
    expect(seen).toContain(ids.publicItem);
    for (const id of [...hiddenFromOthers(), ids.orgItem]) expect(seen).not.toContain(id);
  });

  it("a viewer of the organization: its `org` objects too, not a member's private ones", async () => {
    const seen = await everythingSeenBy(viewer);
    for (const id of [ids.publicItem, ids.orgItem]) expect(seen).toContain(id);
    for (const id of hiddenFromOthers()) expect(seen).not.toContain(id);
  });

  it('the author of the private objects, and an admin (the owner), find them all', async () => {
    for (const user of [author, owner]) {
      const seen = await everythingSeenBy(user);
      for (const id of [...hiddenFromOthers(), ids.orgItem, ids.publicItem]) expect(seen).toContain(id);
    }
  });

  it('a hidden object asked for by id answers exactly as one that does not exist', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const pairs: [string, string][] = [
      [`/api/v1/stac/collections/${ids.privateCollection}`, `/api/v1/stac/collections/${missing}`],
      [
        `/api/v1/stac/collections/${ids.privateCollection}/items`,
        `/api/v1/stac/collections/${missing}/items`,
      ],
      [`/api/v1/stac/items/${ids.privateItem}`, `/api/v1/stac/items/${missing}`],
      [
        `/api/v1/stac/collections/${ids.collection}/items/${ids.privateItem}`,
        `/api/v1/stac/collections/${ids.collection}/items/${missing}`,
      ],
      [
        `/api/v1/stac/search?collections=${ids.privateCollection}`,
        `/api/v1/stac/search?collections=${missing}`,
      ],
    ];
    for (const [hidden, absent] of pairs) {
      const [a, b] = await Promise.all([call('GET', hidden, as(viewer)), call('GET', absent, as(viewer))]);
      expect(a.status, hidden).toBe(b.status);
      expect(a.status).toBeGreaterThanOrEqual(400);
      const words = (body: unknown) =>
        JSON.stringify(body)
          .replaceAll(ids.privateCollection ?? '', 'ID')
          .replaceAll(ids.privateItem ?? '', 'ID')
          .replaceAll(missing, 'ID');
      expect(words(a.body)).toBe(words(b.body));
    }
  });
});
