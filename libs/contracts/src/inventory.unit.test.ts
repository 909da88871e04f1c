import { describe, expect, it } from 'vitest';
import { INVENTORY_QUERY_MAX, inventoryQuerySchema } from './inventory.js';
import { UNSTORABLE_TEXT_MESSAGE } from './storable-text.js';
import { someId } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';

describe('inventory query', () => {
  it('defaults to title order, ascending, 50 a page, no filter', () => {
    expect(acceptanceOf(inventoryQuerySchema, {})).toEqual({ limit: 50, sort: 'title', order: 'asc' });
  });

  it('takes every filter at once', () => {
    expect(
      acceptanceOf(inventoryQuerySchema, {
        kind: 'item',
        status: 'ready,failed',
        parentId: someId,
        q: '100% tiles',
        sort: 'updatedAt',
        order: 'desc',
      }),
    ).toMatchObject({ kind: ['item'], status: ['ready', 'failed'], parentId: someId, q: '100% tiles' });
  });

  it('reads a box as the STAC search does, across the antimeridian too, heights dropped', () => {
    expect(acceptanceOf(inventoryQuerySchema, { bbox: '170,-10,-170,10' }).bbox).toEqual([
      170, -10, -170, 10,
    ]);
    expect(acceptanceOf(inventoryQuerySchema, { bbox: '1,2,-5,3,4,5' }).bbox).toEqual([1, 2, 3, 4]);
  });

  it.each([
    [{ q: '' }, 'q: must be at least 1 character'],
    [{ q: 'x'.repeat(INVENTORY_QUERY_MAX + 1) }, `q: must be at most ${INVENTORY_QUERY_MAX} characters`],
    [{ q: 'a\u0000' }, `q: ${UNSTORABLE_TEXT_MESSAGE}`],
    [{ parentId: 'root' }, 'parentId: must be a UUID'],
    [{ kind: 'item,dataset' }, 'kind[1]: must be one of catalog, collection, item'],
    [{ bbox: '1,2,3' }, 'bbox: must be 4 numbers (west,south,east,north) or 6 with heights; got 3'],
    [{ bbox: '0,10,1,5' }, 'bbox: south (10) must not be greater than north (5)'],
    [{ bbox: '-181,0,0,1' }, 'bbox: west (-181) must be a longitude from -180 to 180'],
    [{ bbox: '0x1,0,1,1' }, 'bbox: must hold numbers only'],
    [{ bbox: ['1,2,3,4', '1,2,3,4'] }, 'bbox: must be west,south,east,north'],
  ])('refuses %j naming the parameter', (query, message) => {
    expect(rejectionOf(inventoryQuerySchema, query).message).toBe(message);
  });
});
