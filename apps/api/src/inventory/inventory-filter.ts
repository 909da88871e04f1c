import type { InventoryQuery, PortalKind } from '@portal/contracts';
import { kindRanges } from '../browser/page-query.js';
import { oneOf } from '../browser/node-queries.js';
import type { QueryParams } from '@portal/read-model-core';
import { visibleObject, type Principals } from '@portal/read-model-portal-objects';
import { meetsBox } from './area-filter.js';
import { containsText } from './text-search.js';

/**
 * The kinds whose index ranges a page reads and merges, or `null` for one range. Without `parentId`
 * every order sits on `(kind, title | created_at | updated_at, id)`; with it, kind and title sit on
 * `(parent_id, kind, title, id)` and the times on `(parent_id, created_at | updated_at, id)`, without
 * the kind. With `q` the trigram index finds the matches, once for all kinds; with `bbox` the footprints'
 * GiST index (and the collections), once for all kinds too.
 */
export function inventoryRanges(query: InventoryQuery): PortalKind[] | null {
  if (query.q !== undefined || query.bbox !== undefined) return null;
  if (query.parentId !== undefined && query.sort !== 'kind' && query.sort !== 'title') return null;
  return kindRanges(query.sort, query.kind);
}

/**
 * The objects an inventory request covers, for its page and its counted totals: those the caller can see
 * among the matches. `kindInRanges`: the page puts the kind filter in its per-kind ranges, so it is left
 * out here.
 */
export function inventoryConditions(
  alias: string,
  query: InventoryQuery,
  principals: Principals,
  params: QueryParams,
  options: { readonly kindInRanges: boolean } = { kindInRanges: false },
): string[] {
  const conditions = [visibleObject(alias, principals, params)];
  // Without a parent the page walks one of the portal-wide `portal_objects_inventory_*` indexes, which
  // only a query stating `depth >= 1` (true of every row) may use; with one, the `(parent_id, …)` indexes.
  conditions.push(
    query.parentId === undefined
      ? `${alias}.depth >= 1`
      : `${alias}.parent_id = ${params.add(query.parentId, 'uuid')}`,
  );
  if (query.kind && !options.kindInRanges) conditions.push(oneOf(`${alias}.kind`, query.kind, params));
  if (query.status) conditions.push(oneOf(`${alias}.status`, query.status, params));
  if (query.q !== undefined) conditions.push(containsText(alias, query.q, params));
  if (query.bbox !== undefined) conditions.push(meetsBox(alias, query.bbox, query.kind, params));
  return conditions;
}
