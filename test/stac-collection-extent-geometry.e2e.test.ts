import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { createPortalObject } from './support/stac-fixture.js';

/**
 * The collection queryable `geometry` is the union of every box of the extent. STAC's own rule makes
 * boxes overlap (the first spans the whole extent, the others are parts of it), so a point inside two
 * boxes must be inside the geometry, not in a hole where they overlap. Each request carries `q=<a word
 * of this run>`, so the stack's other collections never enter the answer.
 */

useSignedInCaller();

const TAG = `zg${randomBytes(5).toString('hex')}`;
let overall = '';
let overlapping = '';
let withDegenerate = '';

const extent = (bbox: number[][]) => ({
  spatial: { bbox },
  temporal: { interval: [['2020-01-01T00:00:00Z', null]] },
});

beforeAll(async () => {
  overall = await createPortalObject('collections', {
    title: 'An overall box and a part of it',
    keywords: [TAG],
    extent: extent([
      [0, 0, 10, 10],
      [2, 2, 8, 8],
    ]),
  });
  overlapping = await createPortalObject('collections', {
    title: 'Two boxes that overlap',
    keywords: [TAG],
    extent: extent([
      [20, 0, 30, 10],
      [25, 5, 35, 15],
    ]),
  });
  withDegenerate = await createPortalObject('collections', {
    title: 'A box, a point and a line',
    keywords: [TAG],
    extent: extent([
      [40, 0, 50, 10],
      [45, 5, 45, 5],
      [42, 1, 42, 9],
    ]),
  });
}, 60_000);

async function matching(filter: string): Promise<string[]> {
  const query = new URLSearchParams({ q: TAG, filter, limit: '100' });
  const answer = await call<{ collections: { id: string }[] }>(
    'GET',
    `/api/v1/stac/collections?${query.toString()}`,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.collections.map((collection) => collection.id).sort();
}

describe('collection search: the geometry queryable where extent boxes overlap', () => {
  it('a point inside the overall box and a part of it', async () => {
    expect(await matching('S_INTERSECTS(geometry, POINT(5 5))')).toEqual([overall]);
    expect(await matching('S_CONTAINS(geometry, POINT(5 5))')).toEqual([overall]);
  });

  it('a point where two boxes overlap', async () => {
    expect(await matching('S_INTERSECTS(geometry, POINT(27 7))')).toEqual([overlapping]);
  });

  it('the union of the boxes equals the overall box', async () => {
    expect(await matching('S_EQUALS(geometry, POLYGON((0 0, 10 0, 10 10, 0 10, 0 0)))')).toEqual([overall]);
    expect(await matching('S_EQUALS(geometry, POLYGON((40 0, 50 0, 50 10, 40 10, 40 0)))')).toEqual([
      withDegenerate,
    ]);
  });

  it('a point on a degenerate box inside another', async () => {
    expect(await matching('S_CONTAINS(geometry, POINT(45 5))')).toEqual([withDegenerate]);
  });
});
