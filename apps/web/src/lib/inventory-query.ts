import type { InventoryQuery } from '../api/endpoints.js';
import { boxParam, parseBoxParam } from '../map/bbox.js';
import { childrenQueryOf, searchOf } from './children-query.js';

/**
 * The inventory's query from its URL (`?q=…&kind=…&bbox=w,s,e,n`, the API's names): the children's
 * order and filters, the search text and the box. A malformed box in a hand-edited URL is ignored, as
 * an unknown kind is, rather than failing the page.
 */
export function inventoryQueryOf(search: string): InventoryQuery {
  const params = new URLSearchParams(search);
  return {
    ...childrenQueryOf(search),
    q: params.get('q') ?? '',
    bbox: parseBoxParam(params.get('bbox')),
  };
}

/** The inventory URL's query string; defaults and an empty search are left out. */
export function inventorySearchOf(query: InventoryQuery): string {
  const params = new URLSearchParams(searchOf(query));
  if (query.q.trim() !== '') params.set('q', query.q);
  if (query.bbox) params.set('bbox', boxParam(query.bbox));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
