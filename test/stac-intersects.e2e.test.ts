import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { createPortalObject, pageToEnd, random, type Box } from './support/stac-fixture.js';

/**
 * `intersects` with areas whose GeoJSON is not a plain valid polygon: MultiPolygons whose parts overlap
 * (one part lying over another's hole too), polygons with holes, a GeometryCollection of overlapping
 * polygons. The area is exactly what the geometry covers (the union of its parts, less each polygon's
 * holes), compared with a brute-force evaluation of the same area over this file's items in memory.
 * Items are small boxes and points placed in every region of the areas (inside a hole, in an overlap, on
 * a hole's edge), plus random ones; searches name this file's collection (the stack is shared).
 */

useSignedInCaller();

/** A part of an area: an outer box less the interiors of its holes (holes never touch each other). */
interface Part {
  readonly outer: Box;
  readonly holes: readonly Box[];
}

interface Placed {
  readonly id: string;
  readonly rect: Box;
}

const items: Placed[] = [];
let collection = '';

const ring = ([west, south, east, north]: Box) => [
  [west, south],
  [east, south],
  [east, north],
  [west, north],
  [west, south],
];
const polygon = (part: Part) => [ring(part.outer), ...part.holes.map(ring)];

const meets = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
/** Strictly inside a hole's interior: the hole's edge still belongs to the polygon. */
const insideInterior = (rect: Box, hole: Box) =>
  hole[0] < rect[0] && rect[2] < hole[2] && hole[1] < rect[1] && rect[3] < hole[3];

/** The brute force: an item matches when its box meets some part and lies in none of that part's holes. */
function expected(parts: readonly Part[]): string[] {
  return items
    .filter((item) =>
      parts.some(
        (part) => meets(item.rect, part.outer) && !part.holes.some((hole) => insideInterior(item.rect, hole)),
      ),
    )
    .map((item) => item.id)
    .sort();
}

/** Part A with a hole, part B overlapping A and covering part of that hole, part C inside A's hole. */
const A: Part = { outer: [-60, -50, 60, 50], holes: [[-30, -25, 30, 25]] };
const B: Part = { outer: [0, -10, 100, 40], holes: [] };
const C: Part = { outer: [-20, -20, -10, -10], holes: [] };
/** A polygon with two holes. */
const D: Part = {
  outer: [-150, -60, -70, 60],
  holes: [
    [-140, -50, -120, 50],
    [-100, -40, -80, 0],
  ],
};

/** Points and tiny boxes in every region of the areas above, then random boxes and points anywhere. */
function placements(): Box[] {
  const point = (x: number, y: number): Box => [x, y, x, y];
  const fixed: Box[] = [
    point(5, 5), // in A's hole, under B
    point(-5, 5), // in A's hole only
    point(-15, -15), // in C, inside A's hole
    point(-25, -22), // in A's hole, outside C
    point(40, 30), // in the overlap of A and B
    point(80, 20), // in B only
    point(-45, 0), // in A only
    point(-30, 0), // on the edge of A's hole
    [-10, -10, 10, 10], // a box in A's hole that meets B
    [-28, 5, -22, 10], // a box inside A's hole only
    [-35, -5, -25, 5], // a box across the edge of A's hole
    point(-130, 0), // in D's first hole
    point(-90, -20), // in D's second hole
    point(-90, 30), // in D, between the holes
    point(-145, 0), // in D
    [-95, -30, -85, -10], // a box inside D's second hole
    point(150, 0), // in nothing
  ];
  const next = random(20261129);
  const randomOnes = Array.from({ length: 24 }, (): Box => {
    const west = Math.round((next() * 300 - 160) * 10) / 10;
    const south = Math.round((next() * 140 - 70) * 10) / 10;
    if (next() < 0.5) return point(west, south);
    return [
      west,
      south,
      Math.round((west + next() * 15) * 10) / 10,
      Math.round((south + next() * 15) * 10) / 10,
    ];
  });
  return [...fixed, ...randomOnes];
}

beforeAll(async () => {
  collection = await createPortalObject('collections', { title: 'STAC intersects areas' });
  const boxes = placements();
  for (let index = 0; index < boxes.length; index += 8) {
    const chunk = boxes.slice(index, index + 8);
    const ids = await Promise.all(
      chunk.map((rect, offset) =>
        createPortalObject('items', {
          title: `Area probe ${index + offset}`,
          parentId: collection,
          ...(rect[0] === rect[2] && rect[1] === rect[3]
            ? { geometry: { type: 'Point', coordinates: [rect[0], rect[1]] } }
            : { bbox: [...rect] }),
          datetime: '2024-01-01T00:00:00Z',
        }),
      ),
    );
    ids.forEach((id, offset) => items.push({ id, rect: chunk[offset] as Box }));
  }
}, 120_000);

/** The search's matches by GET and POST, paged by 5, as sorted ids. */
async function searched(geometry: Record<string, unknown>): Promise<{ get: string[]; post: string[] }> {
  const query = new URLSearchParams({
    collections: collection,
    intersects: JSON.stringify(geometry),
    limit: '5',
  });
  const byGet = await pageToEnd({ method: 'GET', path: `/api/v1/stac/search?${query.toString()}` });
  const byPost = await pageToEnd({
    method: 'POST',
    path: '/api/v1/stac/search',
    body: { collections: [collection], intersects: geometry, limit: 5 },
  });
  return { get: [...byGet.ids].sort(), post: [...byPost.ids].sort() };
}

async function expectArea(geometry: Record<string, unknown>, parts: readonly Part[]) {
  const want = expected(parts);
  const found = await searched(geometry);
  expect(found.get).toEqual(want);
  expect(found.post).toEqual(want);
  return want;
}

const idOf = (rect: Box) =>
  items.find((item) => item.rect.every((value, index) => value === rect[index]))?.id;

describe('intersects covers exactly what the geometry covers', () => {
  it('a polygon with a hole: nothing strictly inside the hole, its edge included', async () => {
    const want = await expectArea({ type: 'Polygon', coordinates: polygon(A) }, [A]);
    expect(want).not.toContain(idOf([-5, 5, -5, 5]));
    expect(want).toContain(idOf([-30, 0, -30, 0]));
    expect(want).toContain(idOf([-35, -5, -25, 5]));
  });

  it('a polygon with two holes', async () => {
    const want = await expectArea({ type: 'Polygon', coordinates: polygon(D) }, [D]);
    expect(want).not.toContain(idOf([-130, 0, -130, 0]));
    expect(want).toContain(idOf([-90, 30, -90, 30]));
  });

  it('a MultiPolygon whose parts overlap: the overlap is covered, not a hole', async () => {
    const plainA: Part = { outer: A.outer, holes: [] };
    const want = await expectArea({ type: 'MultiPolygon', coordinates: [polygon(plainA), polygon(B)] }, [
      plainA,
      B,
    ]);
    expect(want).toContain(idOf([40, 30, 40, 30]));
    expect(want).toContain(idOf([5, 5, 5, 5]));
  });

  it('a MultiPolygon with a hole, one part over that hole and one part inside it', async () => {
    const want = await expectArea(
      { type: 'MultiPolygon', coordinates: [polygon(A), polygon(B), polygon(C), polygon(D)] },
      [A, B, C, D],
    );
    expect(want).toContain(idOf([5, 5, 5, 5]));
    expect(want).toContain(idOf([-15, -15, -15, -15]));
    expect(want).not.toContain(idOf([-25, -22, -25, -22]));
    expect(want).not.toContain(idOf([-28, 5, -22, 10]));
  });

  it('a GeometryCollection of overlapping polygons and a point', async () => {
    const want = await expectArea(
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Polygon', coordinates: polygon(A) },
          { type: 'Polygon', coordinates: polygon(B) },
          { type: 'Point', coordinates: [150, 0] },
        ],
      },
      [A, B, { outer: [150, 0, 150, 0], holes: [] }],
    );
    expect(want).toContain(idOf([150, 0, 150, 0]));
  });

  it('the same areas count the same in the aggregation', async () => {
    const geometry = { type: 'MultiPolygon', coordinates: [polygon(A), polygon(B), polygon(C)] };
    const response = await call<{ aggregations: { name: string; value?: number }[] }>(
      'POST',
      '/api/v1/stac/aggregate',
      { body: { collections: [collection], intersects: geometry, aggregations: ['total_count'] } },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.aggregations[0]?.value).toBe(expected([A, B, C]).length);
  });
});
