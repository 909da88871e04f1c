import type { QueryParams } from '@portal/read-model-core';
import { itemEnd, itemStart } from './item-time-sql.js';
import { propertySql } from './item-filter.js';
import type { SortDirection, SortTerm } from './sort-request.js';
import { keyTimeSql } from './search-token.js';
import { badParameter } from './stac-problem.js';
import { visibleCollectionSql } from './visible-collection-sql.js';

/**
 * How item pages are ordered (docs/stac.md, "Sort"): the keys of `sortby`, each an SQL expression over
 * the item row `o` (and `p`, its visible parent), then the id, so the order is total and a page can
 * continue strictly after the previous page's last key (keyset paging, never OFFSET).
 */
export type SortKeyType = 'timestamptz' | 'text' | 'uuid' | 'jsonb';

export interface SortKey {
  /** The name as the signature writes it (`datetime`, `eo:cloud_cover`). */
  readonly field: string;
  readonly sql: string;
  /** How the key travels in a token and is bound back: the SQL type of `sql`. */
  readonly type: SortKeyType;
  /** Whether `sql` can be NULL: NULL sorts after every value ascending, before every value descending. */
  readonly nullable: boolean;
  readonly direction: SortDirection;
}

export interface ItemSort {
  readonly keys: readonly SortKey[];
  /** The canonical sort (`-datetime,-id`): a token is valid only under the sort it was issued for. */
  readonly signature: string;
  /** Conditions true of every item that let the planner use a partial index declared with them. */
  readonly conditions: readonly string[];
  /** Which end of the item's time the first key is, if it is one: that time index gives the order. */
  readonly leadingTime: 'start' | 'end' | null;
}

type KeyDefinition = Omit<SortKey, 'field' | 'direction'> & { readonly condition?: string };

// `depth >= 1` holds for every row; the inventory's title and change-time indexes are declared with it
// (portal-objects schema.sql), so a sort by those keys states it to be read in index order.
const EVERY_ROW = 'o.depth >= 1';

const start: KeyDefinition = { sql: itemStart('o'), type: 'timestamptz', nullable: false };

/**
 * The keys with a fixed meaning. `datetime` and `start_datetime` both order by the start of the item's
 * time (an instant is its own start), `end_datetime` by its end: the expressions the STAC time indexes
 * hold, so such a sort reads one index range and stops at the page's end.
 */
const fixedKeys: Readonly<Record<string, KeyDefinition>> = {
  id: { sql: 'o.id', type: 'uuid', nullable: false },
  collection: { sql: visibleCollectionSql, type: 'text', nullable: true },
  datetime: start,
  start_datetime: start,
  end_datetime: { sql: itemEnd('o'), type: 'timestamptz', nullable: false },
  created: { sql: 'o.created_at', type: 'timestamptz', nullable: false },
  updated: { sql: 'o.updated_at', type: 'timestamptz', nullable: false, condition: EVERY_ROW },
  title: { sql: 'o.title', type: 'text', nullable: false, condition: EVERY_ROW },
  description: { sql: 'o.description', type: 'text', nullable: true },
};

/** The names with a fixed meaning, as `/sortables` lists them (any other name is an item property). */
export const fixedSortFields: readonly string[] = Object.keys(fixedKeys);

/** Item fields that are no sortable values (the extension sorts strings, numbers and times only). */
const unsortable = new Set([
  'geometry',
  'bbox',
  'assets',
  'links',
  'type',
  'stac_version',
  'stac_extensions',
]);

/**
 * Any other name is an item property. Only strings, numbers and booleans sort (in PostgreSQL's jsonb
 * order: strings, then numbers, then booleans); an object, an array or a missing property counts as NULL.
 */
function propertyKey(name: string): KeyDefinition {
  const value = propertySql(name);
  return {
    sql: `CASE WHEN jsonb_typeof(${value}) IN ('string', 'number', 'boolean') THEN ${value} END`,
    type: 'jsonb',
    nullable: true,
  };
}

/** `properties.x` and `x` name the same key, as the extension allows; `id` and `collection` are the item's. */
function canonicalName(field: string): string {
  return field.startsWith('properties.') ? field.slice('properties.'.length) : field;
}

function keyOf(term: SortTerm): SortKey {
  const field = canonicalName(term.field);
  if (field === '') throw badParameter('sortby', `'${term.field}' names no field`, 'INVALID_SORTBY');
  if (unsortable.has(term.field) || field === 'geometry') {
    throw badParameter('sortby', `cannot sort by '${term.field}'`, 'INVALID_SORTBY');
  }
  const definition = Object.hasOwn(fixedKeys, field)
    ? (fixedKeys[field] as KeyDefinition)
    : propertyKey(field);
  return {
    field,
    sql: definition.sql,
    type: definition.type,
    nullable: definition.nullable,
    direction: term.direction,
  };
}

const signatureOf = (keys: readonly SortKey[]) =>
  keys.map((key) => `${key.direction === 'desc' ? '-' : '+'}${key.field}`).join(',');

/** Newest first: the start of the item's time, then the id, both descending. */
export const DEFAULT_SORT_TERMS: readonly SortTerm[] = [{ field: 'datetime', direction: 'desc' }];

/**
 * The sort of a search: the given terms, then the id in the first term's direction (so a one-key sort
 * matches an index ending in the id). Keys after the id are dropped: the id alone decides by then.
 */
export function itemSort(terms: readonly SortTerm[] | null): ItemSort {
  const keys: SortKey[] = [];
  for (const term of terms ?? DEFAULT_SORT_TERMS) {
    const key = keyOf(term);
    if (keys.some((known) => known.field === key.field)) {
      throw badParameter('sortby', `names '${key.field}' twice`, 'INVALID_SORTBY');
    }
    keys.push(key);
    if (key.field === 'id') break;
  }
  const [first] = keys;
  if (first !== undefined && !keys.some((key) => key.field === 'id')) {
    keys.push({ ...keyOf({ field: 'id', direction: first.direction }) });
  }
  const conditions = [
    ...new Set(
      keys.flatMap((key) => {
        const condition = Object.hasOwn(fixedKeys, key.field) ? fixedKeys[key.field]?.condition : undefined;
        return condition === undefined ? [] : [condition];
      }),
    ),
  ];
  const leadingTime =
    first?.field === 'datetime' || first?.field === 'start_datetime'
      ? 'start'
      : first?.field === 'end_datetime'
        ? 'end'
        : null;
  return { keys, signature: signatureOf(keys), conditions, leadingTime };
}

/**
 * The same order backwards, for a page read towards the start (a `prev` link): every key flipped.
 * PostgreSQL's NULL is the greatest value both ways (last ascending, first descending), so the flipped
 * order is exactly the reverse, and `afterSql` on it selects the rows before a key.
 */
export function reversedSort(sort: ItemSort): ItemSort {
  return {
    ...sort,
    keys: sort.keys.map((key) => ({ ...key, direction: key.direction === 'asc' ? 'desc' : 'asc' })),
  };
}

/** `(sql IS NULL)`: false for a value, true for NULL, so ascending it puts NULLs last, as PostgreSQL does. */
const isNull = (key: SortKey) => `(${key.sql} IS NULL)`;

/**
 * The ORDER BY. A nullable key is preceded by whether it is NULL, in the same direction: the same order as
 * PostgreSQL's (NULL last ascending, first descending), but written so an index on `(<key> IS NULL, <key>,
 * id)` holds it and a page can continue inside it with one row comparison that keeps the NULLs
 * (`afterSql`); an index on `(<key>, id)` cannot start after a value and still reach the NULLs past the end.
 */
export function orderBySql(sort: ItemSort): string {
  return sort.keys
    .flatMap((key) => {
      const direction = key.direction === 'desc' ? 'DESC' : 'ASC';
      const ordered = `${key.sql} ${direction}`;
      return key.nullable ? [`${isNull(key)} ${direction}`, ordered] : [ordered];
    })
    .join(', ');
}

/** The keys of a row as text, in the form the token keeps and binds back (times to the microsecond). */
export function sortKeysSql(sort: ItemSort): string {
  const texts = sort.keys.map((key) =>
    key.type === 'timestamptz' ? keyTimeSql(key.sql) : `(${key.sql})::text`,
  );
  return `ARRAY[${texts.join(', ')}]::text[]`;
}

/** Rows ordered strictly after `value` on one key (NULL is the greatest value, as PostgreSQL orders it). */
function beyond(key: SortKey, value: string | null): string | null {
  if (key.direction === 'asc') {
    if (value === null) return null;
    return key.nullable ? `(${key.sql} > ${value} OR ${key.sql} IS NULL)` : `${key.sql} > ${value}`;
  }
  return value === null ? `${key.sql} IS NOT NULL` : `${key.sql} < ${value}`;
}

const same = (key: SortKey, value: string | null) =>
  value === null ? `${key.sql} IS NULL` : `${key.sql} = ${value}`;

/**
 * The row comparison of a one-way sort, as `orderBySql` orders it: each nullable key is first compared
 * by whether it is NULL, then, when the page's value is not NULL, by the value. When it is NULL the value
 * is left out: the rows that are NULL there too tie on that key and go on to the next, and a NULL is
 * never compared (a row comparison meeting a NULL is unknown, which would drop the row).
 */
function rowComparison(sort: ItemSort, bound: readonly (string | null)[], operator: '<' | '>'): string {
  const left: string[] = [];
  const right: string[] = [];
  sort.keys.forEach((key, index) => {
    const value = bound[index] ?? null;
    if (key.nullable) {
      left.push(isNull(key));
      right.push(value === null ? 'TRUE' : 'FALSE');
    }
    if (value !== null) {
      left.push(key.sql);
      right.push(value);
    }
  });
  return `(${left.join(', ')}) ${operator} (${right.join(', ')})`;
}

/**
 * A bound on the first key alone that every row after the page holds, so an index on it starts at the
 * previous page's key: `(key IS NULL, key) >= (false, v)` ascending keeps the NULLs that follow every
 * value; descending, NULLs come first and `key <= v` holds after a value; after a NULL ascending only
 * NULLs follow. `null` when no bound narrows (after a NULL descending every value may follow).
 */
function leadingBound(first: SortKey, value: string | null): string | null {
  if (value === null) return first.direction === 'asc' ? `${first.sql} IS NULL` : null;
  if (first.direction === 'desc') return `${first.sql} <= ${value}`;
  return first.nullable
    ? `(${isNull(first)}, ${first.sql}) >= (FALSE, ${value})`
    : `${first.sql} >= ${value}`;
}

/**
 * The rows after the previous page's last `values` in the sort's order. When every key runs one way, a
 * row comparison (which an index on those keys, with `IS NULL` before each nullable one, answers as one
 * range); otherwise the lexicographic expansion, with the first key bounded so an index on it still
 * starts at the right place (docs/stac.md, "Sort").
 */
export function afterSql(sort: ItemSort, values: readonly (string | null)[], params: QueryParams): string {
  const bound = sort.keys.map((key, index) => {
    const value = values[index] ?? null;
    return value === null ? null : params.add(value, key.type);
  });
  const [first] = sort.keys;
  if (first === undefined) return 'TRUE';
  const firstBound = bound[0] ?? null;
  const leading = leadingBound(first, firstBound);
  if (sort.keys.every((key) => key.direction === first.direction)) {
    const comparison = rowComparison(sort, bound, first.direction === 'desc' ? '<' : '>');
    // After a NULL ascending, `key IS NULL` is what puts the index scan among the NULLs at once.
    return first.nullable && firstBound === null && leading !== null
      ? `${leading} AND ${comparison}`
      : comparison;
  }
  let after: string | null = null;
  for (let index = sort.keys.length - 1; index >= 0; index -= 1) {
    const key = sort.keys[index] as SortKey;
    const value = bound[index] ?? null;
    const here = beyond(key, value);
    const tie: string | null = after === null ? null : `(${same(key, value)} AND ${after})`;
    after = here === null ? tie : tie === null ? here : `(${here} OR ${tie})`;
  }
  return [...(leading === null ? [] : [leading]), `(${after ?? 'FALSE'})`].join(' AND ');
}
