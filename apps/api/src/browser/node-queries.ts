import type { BrowserNode, PortalItemStatus, PortalKind } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { cursorOf, decodeKeysetCursor, type KeyedRow, type Ordering } from './keyset.js';
import { ancestorPathSelect, browserNode } from './node-rows.js';
import { kindRanges, pageStatement } from './page-query.js';
import { prepared } from './prepared.js';
import { QueryParams } from '@portal/read-model-core';
import { nodeColumns, visibleObject, type NodeRow, type Principals } from '@portal/read-model-portal-objects';

/** One page of nodes under a parent: its order, size, position and filters. */
export interface NodeListing extends Ordering {
  readonly limit: number;
  readonly cursor?: string | undefined;
  readonly kind?: readonly PortalKind[] | undefined;
  readonly status?: readonly PortalItemStatus[] | undefined;
}

/** One value as a plain equality (an index prefix the planner can order by); several as `= ANY`. */
export function oneOf(column: string, values: readonly string[], params: QueryParams): string {
  return values.length === 1
    ? `${column} = ${params.add(values[0], 'text')}`
    : `${column} = ANY(${params.add(values, 'text[]')})`;
}

export interface NodePage {
  readonly rows: readonly NodeRow[];
  readonly next: string | null;
}

/**
 * The children of `parentId` (`null`: the root level) that the caller can see, each page a few index
 * range scans: by kind or title, one range of `(parent_id, kind, title, id)` per kind, merged; by time,
 * one range of `(parent_id, created_at | updated_at, id)`. The filters, the visibility and the keyset
 * condition sit on the same range (hidden children are read and skipped, never counted into the page).
 */
export async function listNodes(
  pool: Pool,
  parentId: string | null,
  listing: NodeListing,
  principals: Principals,
): Promise<NodePage> {
  const params = new QueryParams();
  // Decoded first: a bad cursor answers 400 without a query.
  const after = listing.cursor === undefined ? null : decodeKeysetCursor(listing.cursor, listing);
  const conditions = [
    visibleObject('o', principals, params),
    parentId === null ? 'o.parent_id IS NULL' : `o.parent_id = ${params.add(parentId, 'uuid')}`,
  ];
  // By kind or title the order is `portal_objects_parent`'s (after the parent), kind first.
  const perKind =
    listing.sort === 'kind' || listing.sort === 'title' ? kindRanges(listing.sort, listing.kind) : null;
  if (perKind === null && listing.kind) conditions.push(oneOf('o.kind', listing.kind, params));
  if (listing.status) conditions.push(oneOf('o.status', listing.status, params));
  const text = pageStatement(
    {
      select: nodeColumns('o', principals, params),
      conditions,
      ordering: listing,
      after,
      rows: listing.limit + 1,
      perKind,
    },
    params,
  );
  const result = await pool.query<NodeRow & KeyedRow>(prepared(text, params.values));
  const rows = result.rows.slice(0, listing.limit);
  const last = rows.at(-1);
  return {
    rows,
    next: result.rows.length > listing.limit && last ? cursorOf(listing, last) : null,
  };
}

/** A node the caller can see, with its path, or `null` (404 upstream, as for an unknown id). */
export async function findNode(pool: Pool, id: string, principals: Principals): Promise<BrowserNode | null> {
  const params = new QueryParams();
  const result = await pool.query<NodeRow & { ancestor_path: string | null }>(
    prepared(
      `SELECT ${nodeColumns('o', principals, params)}, ${ancestorPathSelect('o', principals, params)}
         FROM read.portal_objects o
        WHERE o.id = ${params.add(id, 'uuid')} AND ${visibleObject('o', principals, params)}`,
      params.values,
    ),
  );
  const row = result.rows[0];
  return row ? browserNode(row, row.ancestor_path) : null;
}
