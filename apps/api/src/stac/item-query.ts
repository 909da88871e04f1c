import type { QueryResultRow } from 'pg';
import type { Pool } from '@portal/platform';
import { isStacId } from '@portal/contracts';
import { isUuid } from '@portal/domain';
import { QueryParams } from '@portal/read-model-core';
import {
  itemRowColumns,
  visibleObject,
  UNSTORABLE_ITEM,
  type ItemRow,
  type Principals,
} from '@portal/read-model-portal-objects';
import type { ItemMatch, ItemSearch } from './item-search-request.js';
import { afterSql, orderBySql, reversedSort, sortKeysSql } from './item-sort.js';
import { timeBounds, type TimeBounds } from './item-time-bounds.js';
import { itemEnd, itemStart } from './item-time-sql.js';
import { searchAreaSql } from './search-area-sql.js';
import { sortKeysAsTextSql } from './sort-keys-text.js';

/**
 * A condition a later part of the search adds (the CQL2 `filter`): it binds its values through `params`
 * and answers SQL over the item row `o`, never pasting a value into the text.
 */
export type ItemCondition = (params: QueryParams) => string;

export type { ItemRow };

/**
 * An item of a page, with its sort key values a page's token continues from (the JSON text of their
 * array, which `sortKeyValues` reads: sort-keys-text.ts), and its stored JSON when the page is answered
 * from the texts and it has one the caller may be given, else its row.
 */
export type SearchedItem =
  | {
      readonly id: string;
      readonly sort_keys: string;
      readonly stored: string;
      readonly row?: never;
    }
  | {
      readonly id: string;
      readonly sort_keys: string;
      readonly row: ItemRow;
      readonly stored?: never;
    };

/**
 * One page of a search, in the search's order, and whether pages follow and precede it. A page read
 * from a token always has the page it was reached from on that side (that page's items may have been
 * deleted since; the link then answers an empty or shorter page).
 */
export interface ItemPage {
  readonly rows: SearchedItem[];
  readonly next: boolean;
  readonly prev: boolean;
}

/** What an item's STAC JSON is built from (with `p`, its parent when visible). */
const itemColumns = itemRowColumns;

/**
 * The item's stored JSON when the caller may be given it: it was written for a caller who may read the
 * parent (its `parent` and `collection` links), and '' marks a text that could not be stored.
 */
const storedText = `CASE WHEN o.stac_item <> '${UNSTORABLE_ITEM}' AND (o.parent_id IS NULL OR p.kind IS NOT NULL)
            THEN o.stac_item END`;

/** How a page's items are read: their stored JSON where usable (the rest as rows), or every row. */
export type ItemReading = 'stored' | 'rows';

/** The items table with `p`, each item's parent when the caller may read it (its `collection`). */
const itemsWithParent = (principals: Principals, params: QueryParams) =>
  `read.portal_objects o
       LEFT JOIN read.portal_objects p ON p.id = o.parent_id AND ${visibleObject('p', principals, params)}`;

/** `SELECT columns` of the items matching `idCondition` (SQL over `o`) that the caller may read. */
function visibleItemsSql(
  columns: string,
  idCondition: string,
  principals: Principals,
  params: QueryParams,
): string {
  return `SELECT ${columns}
       FROM ${itemsWithParent(principals, params)}
      WHERE ${idCondition} AND o.kind = 'item' AND ${visibleObject('o', principals, params)}`;
}

/** One item the caller may read, by id; `null` when missing, deleted, hidden or not an item. */
export async function findVisibleItem(
  pool: Pool,
  id: string,
  principals: Principals,
): Promise<ItemRow | null> {
  if (!isUuid(id)) return null;
  const params = new QueryParams();
  const idCondition = `o.id = ${params.add(id.toLowerCase(), 'uuid')}`;
  const result = await pool.query<ItemRow>(
    visibleItemsSql(itemColumns, idCondition, principals, params),
    params.values,
  );
  return result.rows[0] ?? null;
}

/**
 * An item of a collection's path: named by the id its STAC client gave it, or by its UUID (docs/stac.md,
 * "Item ids"). Two items of one STAC id can meet in a collection only by a move racing a create (or a
 * create just after a move not yet projected); the one created first answers, the same one every time.
 */
function inCollectionCondition(collectionId: string, pathId: string, params: QueryParams): string {
  const inCollection = `o.parent_id = ${params.add(collectionId, 'uuid')}`;
  return isUuid(pathId)
    ? `o.id = ${params.add(pathId.toLowerCase(), 'uuid')} AND ${inCollection}`
    : `o.stac_id = ${params.add(pathId, 'text')} AND ${inCollection}`;
}

/** The first row of the items of `collectionId` named `pathId` that the caller may read, in creation order. */
async function firstInCollection<Row>(
  pool: Pool,
  columns: string,
  collectionId: string,
  pathId: string,
  principals: Principals,
): Promise<Row | null> {
  if (!isUuid(pathId) && !isStacId(pathId)) return null;
  const params = new QueryParams();
  const condition = inCollectionCondition(collectionId, pathId, params);
  const result = await pool.query<Row & QueryResultRow>(
    `${visibleItemsSql(columns, condition, principals, params)}
      ORDER BY o.created_at, o.id LIMIT 1`,
    params.values,
  );
  return result.rows[0] ?? null;
}

/** The item of `/collections/{collectionId}/items/{pathId}` the caller may read; `null` when none. */
export function findVisibleItemIn(
  pool: Pool,
  collectionId: string,
  pathId: string,
  principals: Principals,
): Promise<ItemRow | null> {
  return firstInCollection<ItemRow>(pool, itemColumns, collectionId, pathId, principals);
}

/** An item as a page of stored JSON reads it: `stored` is `null` where the caller needs it built. */
export interface StoredItemRow {
  readonly id: string;
  readonly parent_id: string | null;
  readonly version: string;
  readonly stored: string | null;
}

/** One item the caller may read, as `findVisibleItem`, with its stored JSON when the caller may be given it. */
export async function findVisibleStoredItem(
  pool: Pool,
  id: string,
  principals: Principals,
): Promise<StoredItemRow | null> {
  if (!isUuid(id)) return null;
  const params = new QueryParams();
  const idCondition = `o.id = ${params.add(id.toLowerCase(), 'uuid')}`;
  const result = await pool.query<StoredItemRow>(
    visibleItemsSql(`o.id, o.parent_id, o.version, ${storedText} AS stored`, idCondition, principals, params),
    params.values,
  );
  return result.rows[0] ?? null;
}

/** As `findVisibleItemIn`, with its stored JSON when the caller may be given it (`findVisibleStoredItem`). */
export function findVisibleStoredItemIn(
  pool: Pool,
  collectionId: string,
  pathId: string,
  principals: Principals,
): Promise<StoredItemRow | null> {
  const columns = `o.id, o.parent_id, o.version, ${storedText} AS stored`;
  return firstInCollection<StoredItemRow>(pool, columns, collectionId, pathId, principals);
}

/** The rows of items the caller may read, by id (those a page read without a usable stored JSON). */
async function findVisibleItems(
  pool: Pool,
  ids: readonly string[],
  principals: Principals,
): Promise<Map<string, ItemRow>> {
  const params = new QueryParams();
  const idCondition = `o.id = ANY(${params.add(ids, 'uuid[]')})`;
  const result = await pool.query<ItemRow>(
    visibleItemsSql(itemColumns, idCondition, principals, params),
    params.values,
  );
  return new Map(result.rows.map((row) => [row.id, row]));
}

/**
 * One collection is an equality, so its items are one ordered range of `portal_objects_stac_parent_time`
 * (a page stops after `limit` rows); with `= ANY` of several the planner merges or sorts instead.
 */
function inCollections(collections: readonly string[], params: QueryParams): string {
  const [only] = collections;
  return collections.length === 1 && only !== undefined
    ? `o.parent_id = ${params.add(only, 'uuid')}`
    : `o.parent_id = ANY(${params.add(collections, 'uuid[]')})`;
}

/**
 * `ids`: an item's STAC id is the one its client gave it, else its UUID (docs/stac.md, "Item ids"). A
 * UUID is never kept as a client's own id, so each id is looked up one way only, each through its index.
 */
function idsCondition(ids: readonly string[], params: QueryParams): string {
  const uuids = ids.filter((id) => isUuid(id)).map((id) => id.toLowerCase());
  const named = ids.filter((id) => !isUuid(id) && isStacId(id));
  const byUuid = uuids.length === 0 ? null : `o.id = ANY(${params.add(uuids, 'uuid[]')})`;
  const byName = named.length === 0 ? null : `o.stac_id = ANY(${params.add(named, 'text[]')})`;
  if (byUuid !== null && byName !== null) return `(${byUuid} OR ${byName})`;
  return byUuid ?? byName ?? 'false';
}

/** No bound from the longest item time: a read that is not ordered by a time (an aggregation). */
const NO_TIME_BOUNDS: TimeBounds = { earliestStart: null, latestEnd: null };

function conditions(
  search: ItemMatch,
  leadingTime: ItemSearch['sort']['leadingTime'],
  bounds: TimeBounds,
  principals: Principals,
  params: QueryParams,
): string[] {
  const where = [`o.kind = 'item'`, visibleObject('o', principals, params)];
  if (search.collections !== null) where.push(inCollections(search.collections, params));
  if (search.ids !== null) where.push(idsCondition(search.ids, params));
  if (search.area !== null) {
    where.push(`ST_Intersects(o.footprint, ${searchAreaSql(search.area, params)})`);
  }
  if (search.interval !== null) {
    const { start, end } = search.interval;
    const startParam = start === null ? 'NULL::timestamptz' : params.add(start, 'timestamptz');
    const endParam = end === null ? 'NULL::timestamptz' : params.add(end, 'timestamptz');
    // With an area, the range form lets the spatio-temporal GiST index answer both at once. Without,
    // it is left out: the planner would take that index for a time alone and sort every match, where
    // the time-ordered B-tree reads one page from the interval's end and stops (docs/stac.md).
    if (search.area !== null) {
      where.push(
        `tstzrange(${itemStart('o')}, ${itemEnd('o')}, '[]') && tstzrange(${startParam}, ${endParam}, '[]')`,
      );
    }
    if (end !== null) where.push(`${itemStart('o')} <= ${endParam}`);
    if (start !== null) where.push(`${itemEnd('o')} >= ${startParam}`);
    // A redundant bound from the longest item time on the time the page is ordered by: its index then
    // reads only the interval's neighbourhood, whichever way it runs (ascending, or the last page of a
    // descending sort). Only on that one: a bound on both made the planner prefer a bitmap scan and a
    // sort of every match in the interval (30 times slower on 300,000 items, docs/stac.md).
    if (leadingTime === 'start' && bounds.earliestStart !== null) {
      where.push(`${itemStart('o')} >= ${params.add(bounds.earliestStart, 'timestamptz')}`);
    }
    if (leadingTime === 'end' && bounds.latestEnd !== null) {
      where.push(`${itemEnd('o')} <= ${params.add(bounds.latestEnd, 'timestamptz')}`);
    }
  }
  return where;
}

/**
 * `FROM … WHERE …` of every item `match` and `extra` select that the caller may read, over `o` (the item)
 * and `p` (its visible parent): the search's own conditions, for a statement that aggregates the matches
 * instead of paging them (docs/stac.md, "Aggregation").
 */
export function matchingItemsSql(
  match: ItemMatch,
  principals: Principals,
  params: QueryParams,
  extra: readonly ItemCondition[],
): string {
  const where = conditions(match, null, NO_TIME_BOUNDS, principals, params);
  for (const condition of extra) where.push(`(${condition(params)})`);
  return `FROM ${itemsWithParent(principals, params)}
      WHERE ${where.join('\n        AND ')}`;
}

/**
 * One page of the items a search matches that the caller may read, in the search's order (newest
 * first unless `sortby` says otherwise), and whether more follow (or, read backwards for a `prev` token,
 * precede). Reads `limit + 1` rows to know that, never counts, and continues from a page's key rather
 * than skipping rows: the cost of a page grows neither with the number of matches nor with its depth.
 */
export async function searchItems(
  pool: Pool,
  search: ItemSearch,
  principals: Principals,
  extra: readonly ItemCondition[] = [],
  reading: ItemReading = 'rows',
): Promise<ItemPage> {
  const bounds =
    search.interval === null || search.sort.leadingTime === null
      ? { earliestStart: null, latestEnd: null }
      : await timeBounds(pool, search.interval);
  const params = new QueryParams();
  const where = conditions(search, search.sort.leadingTime, bounds, principals, params);
  for (const condition of extra) where.push(`(${condition(params)})`);
  where.push(...search.sort.conditions);
  // A `prev` page is read backwards from the key (the sort flipped), then turned back into the order.
  const backwards = search.cursor?.direction === 'prev';
  const order = backwards ? reversedSort(search.sort) : search.sort;
  if (search.cursor !== null) where.push(afterSql(order, search.cursor.keys, params));
  const limit = params.add(search.limit + 1, 'int');
  // Read from the texts, a page parses three values per item instead of the item's every column.
  const columns = reading === 'stored' ? `o.id, ${storedText} AS stored` : itemColumns;
  const result = await pool.query<ItemRow & { stored?: string | null; sort_keys: string }>(
    `SELECT ${columns}, ${sortKeysAsTextSql(sortKeysSql(search.sort))} AS sort_keys
       FROM ${itemsWithParent(principals, params)}
      WHERE ${where.join('\n        AND ')}
      ORDER BY ${orderBySql(order)}
      LIMIT ${limit}`,
    params.values,
  );
  const more = result.rows.length > search.limit;
  const read = more ? result.rows.slice(0, search.limit) : result.rows;
  const rows = await withRows(pool, read, reading, principals);
  if (backwards) return { rows: rows.reverse(), next: true, prev: more };
  // A page reached by a `next` token has the page it came from before it.
  return { rows, next: more, prev: search.cursor !== null };
}

/**
 * The page's items as searched: with their stored JSON, or, where a page read from the texts found none
 * usable (an item under a parent the caller may not read, a text that could not be stored), their rows,
 * read in one more query. An item deleted between the two reads is left out of the page.
 */
async function withRows(
  pool: Pool,
  read: readonly (ItemRow & { stored?: string | null; sort_keys: string })[],
  reading: ItemReading,
  principals: Principals,
): Promise<SearchedItem[]> {
  if (reading === 'rows') return read.map((row) => ({ id: row.id, sort_keys: row.sort_keys, row }));
  const missing = read.filter((row) => typeof row.stored !== 'string').map((row) => row.id);
  const rows =
    missing.length === 0 ? new Map<string, ItemRow>() : await findVisibleItems(pool, missing, principals);
  const items: SearchedItem[] = [];
  for (const { id, sort_keys, stored } of read) {
    if (typeof stored === 'string') items.push({ id, sort_keys, stored });
    else {
      const row = rows.get(id);
      if (row !== undefined) items.push({ id, sort_keys, row });
    }
  }
  return items;
}
