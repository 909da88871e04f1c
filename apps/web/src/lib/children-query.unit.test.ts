import { describe, expect, it } from 'vitest';
import { childrenQueryOf, defaultChildrenQuery, searchOf } from './children-query.js';

describe('children query in the URL', () => {
  it('defaults to kind, ascending, unfiltered, and leaves defaults out of the URL', () => {
    expect(childrenQueryOf('')).toEqual(defaultChildrenQuery);
    expect(searchOf(defaultChildrenQuery)).toBe('');
  });

  it('round-trips an order and filters', () => {
    const query = { sort: 'updatedAt', order: 'desc', kind: ['item'], status: ['ready', 'failed'] } as const;
    const search = searchOf(query);
    expect(search).toBe('?sort=updatedAt&order=desc&kind=item&status=ready%2Cfailed');
    expect(childrenQueryOf(search)).toEqual(query);
  });

  it('ignores values the API would refuse, so a hand-edited URL still opens', () => {
    expect(childrenQueryOf('?sort=size&order=sideways&kind=folder,item&status=lost')).toEqual({
      ...defaultChildrenQuery,
      kind: ['item'],
    });
  });
});
