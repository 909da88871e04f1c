import { portalKinds, type NodeSort, type PortalKind } from '@portal/contracts';
import { afterKey, keySelect, orderByClause, type CursorKey, type Ordering } from './keyset.js';
import type { QueryParams } from '@portal/read-model-core';

/** One keyset page of `read.portal_objects` (alias `o`). */
export interface PageSpec {
  /** The columns to return; the sort key columns (`key0`, `key1`) are added. */
  readonly select: string;
  readonly conditions: readonly string[];
  readonly ordering: Ordering;
  readonly after: CursorKey | null;
  /** The page and one row more, which says whether there is a next page. */
  readonly rows: number;
  /**
   * The kinds to read, one index range each, merged in order; `null` reads one range. Used where the
   * index behind the order starts with the kind (after the parent, if any): each kind is then a range
   * of it, and a filter on some kinds skips the others instead of reading through them.
   */
  readonly perKind: readonly PortalKind[] | null;
}

/** The kinds of a filter (all of them without one), in the order kinds sort. */
function kindsOf(filter: readonly PortalKind[] | undefined): PortalKind[] {
  return portalKinds.filter((kind) => filter === undefined || filter.includes(kind));
}

/**
 * The per-kind ranges of a page whose index starts with the kind, or `null` for one range: sorted by
 * kind with no kind filter, that one range already comes in order.
 */
export function kindRanges(sort: NodeSort, filter: readonly PortalKind[] | undefined): PortalKind[] | null {
  return sort === 'kind' && filter === undefined ? null : kindsOf(filter);
}

/**
 * The statement of a page: one ordered range with a LIMIT, or one per kind under `UNION ALL`, which
 * PostgreSQL merges in order (a Merge Append that stops after the page), reading at most a page from each.
 */
export function pageStatement(spec: PageSpec, params: QueryParams): string {
  const limit = params.add(spec.rows, 'int');
  const after = spec.after === null ? [] : [afterKey('o', spec.ordering, spec.after, params)];
  const range = (conditions: readonly string[]): string =>
    `SELECT ${spec.select}, ${keySelect('o', spec.ordering)}
       FROM read.portal_objects o
      WHERE ${[...spec.conditions, ...conditions].join(' AND ')}
      ORDER BY ${orderByClause('o', spec.ordering)}
      LIMIT ${limit}`;
  if (spec.perKind === null) return range(after);
  const ranges = spec.perKind.map((kind) => `(${range([`o.kind = ${params.add(kind, 'text')}`, ...after])})`);
  return `SELECT * FROM (${ranges.join(' UNION ALL ')}) AS page
           ORDER BY ${orderByClause('page', spec.ordering)}
           LIMIT ${limit}`;
}
