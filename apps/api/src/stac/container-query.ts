import type { Pool } from '@portal/platform';
import { QueryParams } from '@portal/read-model-core';
import {
  visibleObject,
  visibleObjectColumns,
  type ContainerRow,
  type DirectItemRow,
  type Principals,
  type SortedContainerRow,
} from '@portal/read-model-portal-objects';
import { afterSql, orderBySql, reversedSort, sortKeysSql, type ItemSort } from './item-sort.js';
import { keyTimeSql, type ItemCursor, type PageKey } from './search-token.js';

/** A condition on the container row `o` a list adds (the collection search's), binding through `params`. */
export type ContainerCondition = (params: QueryParams) => string;

/** Which containers a list holds: every collection, or the catalogs and collections under one parent. */
export type ContainerScope =
  { readonly kind: 'collections' } | { readonly kind: 'children'; readonly parentId: string | null };

function scopeConditions(scope: ContainerScope, params: QueryParams): string[] {
  if (scope.kind === 'collections') return [`o.kind = 'collection'`];
  return [
    `o.kind IN ('catalog', 'collection')`,
    scope.parentId === null ? 'o.parent_id IS NULL' : `o.parent_id = ${params.add(scope.parentId, 'uuid')}`,
  ];
}

/** A page of containers in the list's order, and whether pages follow and precede it. */
export interface ContainerPage {
  readonly rows: SortedContainerRow[];
  readonly next: boolean;
  readonly prev: boolean;
}

/**
 * A page of the containers in `scope` the caller may read that `conditions` select, in `sort`'s order,
 * continuing after (or, for a `prev` cursor, before) the cursor's keys: keyset paging both ways, as the
 * item search pages (`searchItems`). Reads `limit + 1` rows. Ordered by creation (the default), every
 * collection is one range of `portal_objects_kind_created`, a node's children one of
 * `portal_objects_parent_created`; other orders sort the matches (collections are few).
 */
export async function sortedContainers(
  pool: Pool,
  scope: ContainerScope,
  principals: Principals,
  page: { readonly limit: number; readonly sort: ItemSort; readonly cursor: ItemCursor | null },
  conditions: readonly ContainerCondition[] = [],
): Promise<ContainerPage> {
  const params = new QueryParams();
  const where = [visibleObject('o', principals, params), ...scopeConditions(scope, params)];
  for (const condition of conditions) where.push(`(${condition(params)})`);
  // A `prev` page is read backwards from the key (the sort flipped), then turned back into the order.
  const backwards = page.cursor?.direction === 'prev';
  const order = backwards ? reversedSort(page.sort) : page.sort;
  if (page.cursor !== null) where.push(afterSql(order, page.cursor.keys, params));
  const result = await pool.query<SortedContainerRow>(
    `SELECT ${visibleObjectColumns('o', principals, params)}, ${sortKeysSql(page.sort)} AS sort_keys
       FROM read.portal_objects o
      WHERE ${where.join(' AND ')}
      ORDER BY ${orderBySql(order)}
      LIMIT ${params.add(page.limit + 1, 'int')}`,
    params.values,
  );
  const more = result.rows.length > page.limit;
  const rows = more ? result.rows.slice(0, page.limit) : result.rows;
  if (backwards) return { rows: rows.reverse(), next: true, prev: more };
  return { rows, next: more, prev: page.cursor !== null };
}

/**
 * A page of containers the caller may read, oldest first (creation time, then id), and whether more
 * follow. Every collection is a range of `portal_objects_kind_created`; a node's children one of
 * `portal_objects_parent_created` (the root level's too: `parent_id IS NULL` is an index condition).
 */
export async function listContainers(
  pool: Pool,
  scope: ContainerScope,
  principals: Principals,
  page: { readonly limit: number; readonly after: PageKey | null },
): Promise<{ rows: ContainerRow[]; more: boolean }> {
  const params = new QueryParams();
  const where = [visibleObject('o', principals, params), ...scopeConditions(scope, params)];
  if (page.after !== null) {
    where.push(
      `(o.created_at, o.id) > (${params.add(page.after.time, 'timestamptz')}, ${params.add(page.after.id, 'uuid')})`,
    );
  }
  const result = await pool.query<ContainerRow>(
    `SELECT ${visibleObjectColumns('o', principals, params)}, ${keyTimeSql('o.created_at')} AS key_time
       FROM read.portal_objects o
      WHERE ${where.join(' AND ')}
      ORDER BY o.created_at, o.id
      LIMIT ${params.add(page.limit + 1, 'int')}`,
    params.values,
  );
  const more = result.rows.length > page.limit;
  return { rows: more ? result.rows.slice(0, page.limit) : result.rows, more };
}

/**
 * A page of the live items directly under a catalog or collection that the caller may read, oldest
 * first (creation time, then id), and whether more follow: one range of `portal_objects_parent_created`.
 */
export async function directItems(
  pool: Pool,
  parentId: string,
  principals: Principals,
  page: { readonly limit: number; readonly after: PageKey | null },
): Promise<{ rows: DirectItemRow[]; more: boolean }> {
  const params = new QueryParams();
  const where = [
    `o.parent_id = ${params.add(parentId, 'uuid')}`,
    `o.kind = 'item'`,
    visibleObject('o', principals, params),
  ];
  if (page.after !== null) {
    where.push(
      `(o.created_at, o.id) > (${params.add(page.after.time, 'timestamptz')}, ${params.add(page.after.id, 'uuid')})`,
    );
  }
  const result = await pool.query<DirectItemRow>(
    `SELECT o.id, o.stac_id, ${keyTimeSql('o.created_at')} AS key_time
       FROM read.portal_objects o
      WHERE ${where.join(' AND ')}
      ORDER BY o.created_at, o.id
      LIMIT ${params.add(page.limit + 1, 'int')}`,
    params.values,
  );
  const more = result.rows.length > page.limit;
  return { rows: more ? result.rows.slice(0, page.limit) : result.rows, more };
}
