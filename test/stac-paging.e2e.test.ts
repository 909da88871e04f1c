import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { seedExtensionFixture, type ExtensionFixture } from './support/stac-extension-fixture.js';
import {
  expectShape,
  specError,
  specItemCollection,
  type SpecItemCollection,
} from './support/stac-schemas.js';

/**
 * `prev` links: every page but the first has one, and following it from page N answers exactly page
 * N − 1, by GET and POST, on the search and a collection's items, under sorts with ties, NULLs and
 * mixed directions: paged forward to the end and back to the start, no item repeated or skipped.
 */

useSignedInCaller();

let fixture: ExtensionFixture;

beforeAll(async () => {
  fixture = await seedExtensionFixture(2026_13, 30);
}, 180_000);

interface PageLink {
  rel: string;
  href: string;
  method?: string;
  body?: Record<string, unknown>;
  merge?: boolean;
}

interface Request {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}

async function fetchPage(request: Request): Promise<SpecItemCollection> {
  const response = await call<SpecItemCollection>(request.method, request.path, {
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expectShape(specItemCollection, response.body);
  return response.body;
}

/** The request a page's `next` or `prev` link describes, checked to be of the request's own method. */
function follow(page: SpecItemCollection, rel: 'next' | 'prev', method: string): Request | null {
  const link = page.links.find((candidate) => candidate.rel === rel) as PageLink | undefined;
  if (link === undefined) return null;
  expect(link.method ?? 'GET').toBe(method);
  if (method === 'POST') expect(link.merge).toBe(false);
  const url = new URL(link.href);
  return {
    method,
    path: `${url.pathname}${url.search}`,
    ...(link.body === undefined ? {} : { body: link.body }),
  };
}

const idsOf = (page: SpecItemCollection) => page.features.map((feature) => feature.id);

/** Forward to the end, then back to the start through `prev`, comparing each page with its forward twin. */
async function forwardAndBack(first: Request, expectedCount: number): Promise<void> {
  const forward: SpecItemCollection[] = [];
  let request: Request | null = first;
  while (request !== null) {
    const page = await fetchPage(request);
    forward.push(page);
    request = follow(page, 'next', first.method);
    if (forward.length > 100) throw new Error('the paging does not end');
  }
  const all = forward.flatMap(idsOf);
  expect(all).toHaveLength(expectedCount);
  expect(new Set(all).size).toBe(expectedCount);
  expect(forward.length).toBeGreaterThan(2);
  // Every page but the first has a prev link.
  expect(forward.map((page) => follow(page, 'prev', first.method) !== null)).toEqual(
    forward.map((_, index) => index > 0),
  );

  let index = forward.length - 1;
  let page = forward[index] as SpecItemCollection;
  while (index > 0) {
    const previous = follow(page, 'prev', first.method);
    expect(previous).not.toBeNull();
    page = await fetchPage(previous as Request);
    index -= 1;
    expect(idsOf(page), `page ${index} through prev`).toEqual(idsOf(forward[index] as SpecItemCollection));
    // From a page reached backwards, next leads forward again to the page it came from.
    const again = await fetchPage(follow(page, 'next', first.method) as Request);
    expect(idsOf(again)).toEqual(idsOf(forward[index + 1] as SpecItemCollection));
  }
  // Back at the start: no prev link, as on the first page.
  expect(follow(page, 'prev', first.method)).toBeNull();
}

const SORTS = [
  null,
  '+datetime',
  '-end_datetime',
  '+title',
  '-properties.cloud,+title',
  '+mixed',
  '-collection,-datetime',
  '+description,-created',
  '+properties.cloud',
  '-properties.cloud,-description',
  '+collection,+properties.cloud,+description',
];

describe('prev links', () => {
  it.each(SORTS)('search by GET, sortby %s: forward to the end and back', async (sortby) => {
    const query = new URLSearchParams({
      ids: fixture.ids.join(','),
      limit: '4',
      ...(sortby === null ? {} : { sortby }),
    });
    await forwardAndBack(
      { method: 'GET', path: `/api/v1/stac/search?${query.toString()}` },
      fixture.ids.length,
    );
  });

  it.each(SORTS)('search by POST, sortby %s: forward to the end and back', async (sortby) => {
    const body = { ids: fixture.ids, limit: 3, ...(sortby === null ? {} : { sortby }) };
    await forwardAndBack({ method: 'POST', path: '/api/v1/stac/search', body }, fixture.ids.length);
  });

  it("a collection's items, filtered and sorted, forward and back", async () => {
    const own = fixture.items.filter((item) => item.collection === fixture.collectionA);
    await forwardAndBack(
      {
        method: 'GET',
        path: `/api/v1/stac/collections/${fixture.collectionA}/items?limit=2&sortby=-properties.cloud`,
      },
      own.length,
    );
    const filtered = own.filter((item) => (item.properties.n as number) >= 5);
    await forwardAndBack(
      {
        method: 'GET',
        path: `/api/v1/stac/collections/${fixture.collectionA}/items?limit=2&filter=n%20%3E%3D%205`,
      },
      filtered.length,
    );
  });

  it('a prev token is valid only under its own sort', async () => {
    const query = new URLSearchParams({ ids: fixture.ids.join(','), limit: '4' });
    const first = await fetchPage({ method: 'GET', path: `/api/v1/stac/search?${query.toString()}` });
    const second = await fetchPage(follow(first, 'next', 'GET') as Request);
    const prev = follow(second, 'prev', 'GET') as Request;
    const token = new URL(prev.path, 'http://x').searchParams.get('token') ?? '';
    const response = await call('GET', `/api/v1/stac/search?sortby=-title&token=${token}`);
    expect(response.status).toBe(400);
    expectShape(specError, response.body);
  });
});
