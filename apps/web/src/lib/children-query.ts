import {
  nodeSorts,
  portalItemStatuses,
  portalKinds,
  sortOrders,
  type NodeSort,
  type PortalItemStatus,
  type PortalKind,
  type SortOrder,
} from '@portal/contracts';
import type { ChildrenQuery } from '../api/endpoints.js';

export const defaultChildrenQuery: ChildrenQuery = { sort: 'kind', order: 'asc', kind: [], status: [] };

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return values.includes(value as T) ? (value as T) : fallback;
}

function someOf<T extends string>(values: readonly T[], value: string | null): T[] {
  if (!value) return [];
  return value.split(',').filter((part): part is T => values.includes(part as T));
}

/** The order and filters of a browse URL (`?sort=title&order=desc&kind=item&status=ready,failed`). */
export function childrenQueryOf(search: string): ChildrenQuery {
  const params = new URLSearchParams(search);
  return {
    sort: oneOf<NodeSort>(nodeSorts, params.get('sort'), 'kind'),
    order: oneOf<SortOrder>(sortOrders, params.get('order'), 'asc'),
    kind: someOf<PortalKind>(portalKinds, params.get('kind')),
    status: someOf<PortalItemStatus>(portalItemStatuses, params.get('status')),
  };
}

/** The query string for a browse URL; defaults are left out, so the plain slug path stays the link. */
export function searchOf(query: ChildrenQuery): string {
  const params = new URLSearchParams();
  if (query.sort !== 'kind') params.set('sort', query.sort);
  if (query.order !== 'asc') params.set('order', query.order);
  if (query.kind.length > 0) params.set('kind', query.kind.join(','));
  if (query.status.length > 0) params.set('status', query.status.join(','));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export function isFiltered(query: ChildrenQuery): boolean {
  return query.kind.length > 0 || query.status.length > 0;
}
