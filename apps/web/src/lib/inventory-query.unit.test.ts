import { describe, expect, it } from 'vitest';
import { inventoryQueryOf, inventorySearchOf } from './inventory-query.js';

describe('inventory query in the URL', () => {
  it('reads and writes the search, the filters and the box', () => {
    const search = '?sort=title&kind=item&q=alps&bbox=5.9%2C45.8%2C10.5%2C47.8';
    const query = inventoryQueryOf(search);
    expect(query).toEqual({
      sort: 'title',
      order: 'asc',
      kind: ['item'],
      status: [],
      q: 'alps',
      bbox: [5.9, 45.8, 10.5, 47.8],
    });
    expect(inventoryQueryOf(inventorySearchOf(query))).toEqual(query);
  });

  it('keeps a box across the antimeridian and ignores a malformed one', () => {
    expect(inventoryQueryOf('?bbox=170,-10,-170,10').bbox).toEqual([170, -10, -170, 10]);
    expect(inventoryQueryOf('?bbox=1,2,3').bbox).toBeNull();
    expect(inventoryQueryOf('?bbox=0,10,1,5').bbox).toBeNull();
  });

  it('leaves defaults out', () => {
    expect(inventorySearchOf(inventoryQueryOf(''))).toBe('');
    expect(inventorySearchOf({ ...inventoryQueryOf(''), bbox: [1, 2, 3, 4] })).toBe('?bbox=1%2C2%2C3%2C4');
  });
});
