import { expect } from 'vitest';
import { call, expectCommand } from './http.js';
import { createPortalObject, pageToEnd, random } from './stac-fixture.js';
import type { SpecItem } from './stac-schemas.js';

/**
 * A small portal for the search extensions (sort, fields, query, free text): a catalog holding two
 * collections and a few items of its own (no `collection`), every item made so the extensions have
 * something to tell apart — times and titles that tie, ranges beside instants, descriptions that are
 * missing, keywords, numbers with ties and gaps, a property of every JSON type, labels in mixed case.
 * Deterministic: the same items on every run. Each test file seeds its own (the stack is shared).
 */

/** Words of titles, descriptions and keywords: plain ASCII, so a brute-force reading of the text agrees
 * with PostgreSQL's parser word for word. */
export const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'] as const;

/** `label`: mixed case, for the case-insensitive operators of `query`. */
const LABELS = ['Sentinel-2A', 'sentinel-2b', 'Landsat-8', 'LANDSAT-9', 'modis', 'Sentinel-1'];

/** `mixed`: one of every JSON type (an object or array sorts as if missing); `undefined` leaves it out. */
const MIXED: unknown[] = ['b', 'a', 'B', 3, 1.5, true, false, null, { x: 1 }, [1], undefined, 'aa', -2];

/** A handful of days, so several items start at the same instant (ties for the sort). */
const DAYS = [
  '2021-03-01T10:00:00Z',
  '2021-03-01T10:00:00Z',
  '2022-07-15T00:00:00Z',
  '2020-01-01T00:00:00Z',
  '2023-11-30T23:59:59Z',
  '2022-07-15T00:00:00Z',
  '2019-05-05T05:05:05Z',
];

export interface ExtensionFixture {
  readonly catalog: string;
  readonly collectionA: string;
  readonly collectionB: string;
  /** Every item as the search serves it (full STAC JSON), in no particular order. */
  readonly items: readonly SpecItem[];
  readonly ids: readonly string[];
}

function itemBody(next: () => number, n: number, parentId: string): Record<string, unknown> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const start = DAYS[n % DAYS.length] as string;
  const isRange = n % 3 === 1;
  const end = new Date(Date.parse(start) + (1 + (n % 4)) * 86_400_000).toISOString();
  const west = Math.round(next() * 300 - 150);
  const south = Math.round(next() * 140 - 70);
  const properties: Record<string, unknown> = {
    label: LABELS[n % LABELS.length],
    n,
    keywords: Array.from({ length: n % 4 }, () => pick(WORDS)),
  };
  if (n % 6 !== 5) properties.cloud = Math.floor(next() * 5);
  const mixed = MIXED[n % MIXED.length];
  if (mixed !== undefined) properties.mixed = mixed;
  return {
    // Titles from a few pairs of words: ties, and phrases to search for.
    title: `${WORDS[n % 4]} ${WORDS[(n * 3) % WORDS.length]}`,
    // Left undefined (so absent from the JSON body, overriding the helper's default) one time in seven.
    description: n % 7 === 3 ? undefined : `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} report`,
    parentId,
    bbox: [west, south, west + 2, south + 2],
    ...(isRange ? { start_datetime: start, end_datetime: end } : { datetime: start }),
    properties,
  };
}

/** Creates the fixture (`count` items) and reads every item back through the search. */
export async function seedExtensionFixture(seed: number, count = 30): Promise<ExtensionFixture> {
  const next = random(seed);
  const catalog = await createPortalObject('catalogs', { title: `STAC extensions ${seed}` });
  const collectionA = await createPortalObject('collections', { title: 'Extensions A', parentId: catalog });
  const collectionB = await createPortalObject('collections', { title: 'Extensions B', parentId: catalog });
  const parents = [collectionA, collectionB, collectionA, collectionB, catalog];
  const bodies = Array.from({ length: count }, (_, n) =>
    itemBody(next, n, parents[n % parents.length] ?? catalog),
  );
  const ids: string[] = [];
  for (let index = 0; index < bodies.length; index += 6) {
    ids.push(
      ...(await Promise.all(bodies.slice(index, index + 6).map((body) => createPortalObject('items', body)))),
    );
  }
  // A few changes later than every creation, so `updated` orders differently from `created`.
  for (const id of ids.filter((_, index) => index % 4 === 0).reverse()) {
    const patched = await call('PATCH', `/api/v1/portal/items/${id}`, {
      body: { description: 'golf hotel revised' },
    });
    await expectCommand(patched, 200, 'update item');
  }
  const { pages } = await pageToEnd({
    method: 'POST',
    path: '/api/v1/stac/search',
    body: { ids, limit: 100 },
  });
  const items = pages.flatMap((page) => page.features);
  expect(items).toHaveLength(count);
  return { catalog, collectionA, collectionB, items, ids };
}
