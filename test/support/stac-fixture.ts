import { expect } from 'vitest';
import { call, expectCommand, type CallOptions } from './http.js';
import { z } from 'zod';
import { expectShape, specItemCollection, type SpecItemCollection } from './stac-schemas.js';

/** A page whose items the fields extension cut: any objects, the rest of the page as STAC has it. */
const partialItemCollection = z.looseObject({
  type: z.literal('FeatureCollection'),
  features: z.array(z.record(z.string(), z.unknown())),
  links: z.array(z.looseObject({ href: z.url(), rel: z.string() })),
});

/** [west, south, east, north]; west > east crosses the antimeridian. */
export type Box = readonly [number, number, number, number];

/** An item as the test created it: where it is and when, to search it again in memory. */
export interface FixtureItem {
  readonly id: string;
  /** Its collection, or null directly under a catalog. */
  readonly collection: string | null;
  /** Footprint rectangles (a box across the antimeridian is two). */
  readonly rects: readonly Box[];
  readonly start: string;
  readonly end: string;
}

/** A deterministic generator (mulberry32): the same fixture on every run, varied enough to mean something. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function splitBox([west, south, east, north]: Box): Box[] {
  return west <= east
    ? [[west, south, east, north]]
    : [
        [west, south, 180, north],
        [-180, south, east, north],
      ];
}

const overlaps = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

export interface Criteria {
  readonly boxes?: readonly Box[];
  readonly start?: string | null;
  readonly end?: string | null;
  readonly ids?: readonly string[];
  readonly collections?: readonly (string | null)[];
}

/** The brute-force answer: every item meeting every criterion, newest first by its start, then by id. */
export function expected(items: readonly FixtureItem[], criteria: Criteria): string[] {
  return items
    .filter((item) => {
      if (criteria.collections !== undefined && !criteria.collections.includes(item.collection)) return false;
      if (criteria.ids !== undefined && !criteria.ids.includes(item.id)) return false;
      if (criteria.boxes !== undefined) {
        const boxes = criteria.boxes.flatMap(splitBox);
        if (!item.rects.some((rect) => boxes.some((box) => overlaps(rect, box)))) return false;
      }
      if (criteria.end != null && Date.parse(item.start) > Date.parse(criteria.end)) return false;
      if (criteria.start != null && Date.parse(item.end) < Date.parse(criteria.start)) return false;
      return true;
    })
    .sort((a, b) => Date.parse(b.start) - Date.parse(a.start) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((item) => item.id);
}

export async function createPortalObject(
  kind: 'catalogs' | 'collections' | 'items',
  body: Record<string, unknown>,
  options: CallOptions = {},
): Promise<string> {
  const created = await call<{ portalItemId: string }>('POST', `/api/v1/portal/${kind}/create`, {
    ...options,
    body: { description: 'STAC test object', links: [], ...body },
  });
  await expectCommand(created, 201, `create ${kind}`);
  return created.body.portalItemId;
}

/** A page's `next` link, as STAC writes it for a GET (href) or a POST (href, method, body). */
interface NextLink {
  href: string;
  method?: string;
  body?: Record<string, unknown>;
  merge?: boolean;
}

/**
 * Follows `next` links from the first page to the last, checking each page's shape (the STAC shape of
 * every item unless `partialItems`: items cut by `fields`), and answers every feature id in order.
 * `path` is relative to the stack; later pages come from the absolute `next` hrefs.
 */
export async function pageToEnd(
  first: { method: 'GET' | 'POST'; path: string; body?: Record<string, unknown> },
  options: CallOptions = {},
  partialItems = false,
): Promise<{ ids: string[]; pages: SpecItemCollection[] }> {
  const ids: string[] = [];
  const pages: SpecItemCollection[] = [];
  let request: { method: string; path: string; body?: Record<string, unknown> } | null = first;
  while (request !== null) {
    const response = await call<SpecItemCollection>(request.method, request.path, {
      ...options,
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expectShape(partialItems ? partialItemCollection : specItemCollection, response.body);
    pages.push(response.body);
    ids.push(...response.body.features.map((feature) => feature.id));
    const next = response.body.links.find((link) => link.rel === 'next') as NextLink | undefined;
    if (next === undefined) request = null;
    else {
      const url = new URL(next.href);
      const method = next.method ?? 'GET';
      if (method === 'POST') expect(next.merge ?? false).toBe(false);
      request = {
        method,
        path: `${url.pathname}${url.search}`,
        ...(next.body === undefined ? {} : { body: next.body }),
      };
    }
    if (pages.length > 500) throw new Error('more than 500 pages: the paging does not end');
  }
  expect(new Set(ids).size, 'an item was repeated across pages').toBe(ids.length);
  return { ids, pages };
}
