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

  it.each([
    [{ q: '' }, 'q: must be at least 1 character'],
    [{ q: 'x'.repeat(INVENTORY_QUERY_MAX + 1) }, `q: must be at most ${INVENTORY_QUERY_MAX} characters`],
    [{ q: 'a\u0000' }, `q: ${UNSTORABLE_TEXT_MESSAGE}`],
    [{ parentId: 'root' }, 'parentId: must be a UUID'],
    [{ kind: 'item,dataset' }, 'kind[1]: must be one of catalog, collection, item'],
  ])('refuses %j naming the parameter', (query, message) => {
    expect(rejectionOf(inventoryQuerySchema, query).message).toBe(message);
  });
});
