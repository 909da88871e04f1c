import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { inventoryPageSchema, type InventoryEntry, type InventoryPage } from '@portal/contracts';
import { pageAll, waitForProjection } from './support/browser-tree.js';
import { call, createCatalog, expectMatchesContract } from './support/http.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

type Box = readonly [west: number, south: number, east: number, north: number];

/** Where an object is, as this test decides independently of PostGIS whether a box meets it. */
type Place =
  | { readonly boxes: readonly Box[] }
  /** The triangle (0,0), (10,0), (0,10): a geometry whose own bbox would say more than the shape. */
  | { readonly triangle: true }
  | null;

interface Fixture {
  readonly title: string;
  readonly command: {
    type: 'createCatalog' | 'createCollection' | 'createItem';
    body: Record<string, unknown>;
  };
  readonly place: Place;
}

const world: Box = [-180, -90, 180, 90];

function fixtures(token: string, parentId: string): Fixture[] {
  const item = (title: string, fields: Record<string, unknown>, place: Place): Fixture => ({
    title: `${title} ${token}`,
    command: { type: 'createItem', body: { title: `${title} ${token}`, links: [], parentId, ...fields } },
    place,
  });
  const collection = (title: string, boxes: Box[] | null): Fixture => ({
    title: `${title} ${token}`,
    command: {
      type: 'createCollection',
      body: {
        title: `${title} ${token}`,
        description: 'Somewhere',
        links: [],
        parentId,
        ...(boxes
          ? { extent: { spatial: { bbox: boxes }, temporal: { interval: [['2024-01-01T00:00:00Z', null]] } } }
          : {}),
      },
    },
    // Without an extent and before any ready item, the record shows the whole world.
    place: { boxes: boxes ?? [world] },
  });
  const alps: Box = [5.9, 45.8, 10.5, 47.8];
  const fiji: Box = [177, -19, -179, -16];
  return [
    item('Alps', { bbox: alps }, { boxes: [alps] }),
    item('Fiji', { bbox: fiji }, { boxes: [fiji] }),
    item(
      'Triangle',
      {
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [10, 0],
              [0, 10],
              [0, 0],
            ],
          ],
        },
      },
      { triangle: true },
    ),
    item('Point', { geometry: { type: 'Point', coordinates: [100, 10] } }, { boxes: [[100, 10, 100, 10]] }),
    item('Nowhere', {}, null),
    collection('Two boxes', [
      [-10, 30, 0, 40],
      [20, -40, 30, -30],
    ]),
    collection('Pacific', [[170, -10, -170, 10]]),
    collection('Everywhere', null),
    {
      title: `Folder ${token}`,
      command: {
        type: 'createCatalog',
        body: { title: `Folder ${token}`, description: 'x', links: [], parentId },
      },
      place: null,
    },
  ];
}

/** A box's longitudes as closed intervals: two when it crosses the antimeridian. */
function longitudes([west, , east]: Box): [number, number][] {
  return west <= east
    ? [[west, east]]
    : [
        [west, 180],
        [-180, east],
      ];
}

function boxesMeet(a: Box, b: Box): boolean {
  const latitudes = a[1] <= b[3] && b[1] <= a[3];
  return (
    latitudes && longitudes(a).some(([aw, ae]) => longitudes(b).some(([bw, be]) => aw <= be && bw <= ae))
  );
}

/** Whether the box meets the triangle x ≥ 0, y ≥ 0, x + y ≤ 10: at its corner nearest the origin. */
function meetsTriangle(box: Box): boolean {
  return longitudes(box).some(
    ([west, east]) => east >= 0 && box[3] >= 0 && Math.max(west, 0) + Math.max(box[1], 0) <= 10,
  );
}

function meets(place: Place, box: Box): boolean {
  if (place === null) return false;
  if ('triangle' in place) return meetsTriangle(box);
  return place.boxes.some((own) => boxesMeet(own, box));
}

/** Boxes from a fixed seed, so a failure can be replayed; some cross the antimeridian. */
function randomBoxes(count: number): Box[] {
  let seed = 20_241_128;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const round = (value: number) => Math.round(value * 100) / 100;
  return Array.from({ length: count }, () => {
    const west = round(-180 + 360 * next());
    const east = round(-180 + 360 * next());
    const a = round(-90 + 180 * next());
    const b = round(-90 + 180 * next() * 0.5);
    return [west, Math.min(a, b), east, Math.max(a, b)] as const;
  });
}

const chosenBoxes: Box[] = [
  world,
  [8, 46, 9, 47], // inside the Alps
  [178, -18, -178, -17], // across the antimeridian: Fiji and the Pacific
  [6, 6, 9, 9], // inside the triangle's bbox, outside the triangle
  [1, 1, 2, 2], // inside the triangle
  [-5, 35, -4, 36], // one box of a collection's extent
  [99, 9, 101, 11], // around the point
  [60, 60, 70, 70], // nothing but the whole-world extent
];

const inventory = (query: string) => call<InventoryPage>('GET', `/api/v1/portal/inventory/${query}`);

let token = '';
let parentId = '';
let objects: (Fixture & { id: string })[] = [];

beforeAll(async () => {
  token = `bbox${randomUUID().slice(0, 8)}`;
  parentId = await createCatalog({ title: `Areas ${token}` });
  const made = fixtures(token, parentId);
  const response = await call<{ results: { status: number; body: { portalItemId?: string } }[] }>(
    'POST',
    '/',
    {
      body: { commands: made.map((fixture) => fixture.command) },
    },
  );
  expect(response.status).toBe(200);
  expect(response.body.results.map((result) => result.status)).toEqual(made.map(() => 201));
  await waitForProjection(response.headers.get('x-event-position'));
  objects = made.map((fixture, index) => ({
    ...fixture,
    id: response.body.results[index]?.body.portalItemId ?? '',
  }));
});

const titlesMeeting = (box: Box) =>
  objects
    .filter((object) => meets(object.place, box))
    .map((object) => object.title)
    .sort();

describe('inventory bbox', () => {
  it('keeps exactly the objects whose footprint meets the box, as counted here', async () => {
    for (const box of [...chosenBoxes, ...randomBoxes(24)]) {
      const expected = titlesMeeting(box);
      // Below the parent, and portal-wide through the text search (the other objects carry no token).
      for (const scope of [`parentId=${parentId}`, `q=${token}`]) {
        const response = await inventory(`?${scope}&bbox=${box.join(',')}&limit=100`);
        expect(response.status, `${scope} ${box.join(',')}`).toBe(200);
        expectMatchesContract(inventoryPageSchema, response.body);
        const titles = response.body.items.map((entry) => entry.title).sort();
        expect([box, scope, titles]).toEqual([box, scope, expected]);
        expect(response.body.totals.objects).toBe(expected.length);
      }
    }
  });

  it('excludes catalogs and items without a footprint; kinds and totals follow the filter', async () => {
    const everywhere = await inventory(`?parentId=${parentId}&bbox=-180,-90,180,90`);
    expect(everywhere.body.items.map((entry) => entry.title)).not.toContain(`Nowhere ${token}`);
    expect(everywhere.body.items.map((entry) => entry.title)).not.toContain(`Folder ${token}`);
    expect(everywhere.body.totals).toMatchObject({
      objects: 7,
      byKind: { catalog: 0, collection: 3, item: 4 },
      byStatus: { uploading: 4, ready: 3 },
    });
    const items = await inventory(`?parentId=${parentId}&bbox=178,-18,-178,-17&kind=item`);
    expect(items.body.items.map((entry) => entry.title)).toEqual([`Fiji ${token}`]);
    expect(items.body.totals.byKind).toEqual({ catalog: 0, collection: 0, item: 1 });
    const catalogs = await inventory(`?parentId=${parentId}&bbox=-180,-90,180,90&kind=catalog`);
    expect(catalogs.body.totals.objects).toBe(0);
  });

  it('pages with the filter: every match once, the same totals on every page, bbox kept in next', async () => {
    for (const sort of ['title', 'kind', 'createdAt']) {
      const totals: number[] = [];
      const path = `/api/v1/portal/inventory/?parentId=${parentId}&bbox=-180,-90,180,90&limit=2&sort=${sort}`;
      const entries = await pageAll<InventoryEntry>(path, (page) => {
        totals.push((page as InventoryPage).totals.objects);
        const next = page.links.find((link) => link.rel === 'next');
        if (next) expect(new URL(next.href).searchParams.get('bbox')).toBe('-180,-90,180,90');
      });
      expect(entries.map((entry) => entry.title).sort()).toEqual(titlesMeeting(world));
      expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
      expect(new Set(totals)).toEqual(new Set([7]));
    }
  });

  it('refuses a bad box with a 400 in the STAC search’s words', async () => {
    for (const text of ['1,2,3', '0,10,1,5', '-181,0,0,1', 'a,b,c,d', '0,0,10,1,1,5', '']) {
      const response = await call<{ message: string }>(
        'GET',
        `/api/v1/portal/inventory/?bbox=${encodeURIComponent(text)}`,
      );
      const stac = await call<{ message: string }>(
        'GET',
        `/api/v1/stac/search?bbox=${encodeURIComponent(text)}`,
      );
      expect([text, response.status]).toEqual([text, 400]);
      expect(stac.status).toBe(400);
      expect(response.body.message).toBe(`invalid query: ${stac.body.message}`);
    }
  });
});
