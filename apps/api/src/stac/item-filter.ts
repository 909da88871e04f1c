import { Cql2Error, cql2ToSql, parseCql2Filter, type Cql2Node, type Queryable } from '@portal/cql2';
import type { QueryableResolver } from '@portal/cql2';
import type { ItemCondition } from './item-query.js';
import { visibleCollectionSql } from './visible-collection-sql.js';
import { itemEnd, itemStart } from './item-time-sql.js';
import { HttpProblem } from '../http/problem.js';

/**
 * The queryables of items, each as the item's STAC JSON shows it (libs/read-models/portal-objects/src/stac-item.ts), so a filter selects
 * what a client reading the items would select: `datetime` is null for a range (its T_ extent is the
 * range), `start_datetime`/`end_datetime` exist only for ranges, `collection` only for an item whose
 * parent is a collection the caller may read (`p`, joined by the search).
 */
const isRange = 'o.start_datetime IS NOT NULL AND o.end_datetime IS NOT NULL';
const itemQueryables: Readonly<Record<string, Queryable>> = {
  // The STAC id: the one the item's client gave it, else its UUID (docs/stac.md, "Item ids").
  id: { sql: 'COALESCE(o.stac_id, o.id::text)', type: 'string' },
  // The collection's STAC id, as the item's `collection` shows it (docs/stac.md, "Collection ids").
  collection: { sql: visibleCollectionSql, type: 'string' },
  datetime: {
    sql: `CASE WHEN ${isRange} THEN NULL ELSE COALESCE(o.datetime, o.created_at) END`,
    type: 'timestamp',
    // The item's time as the STAC time indexes declare it (item-time-sql.ts), so a temporal function
    // reads an index range instead of every item. Equal to "the range, else the instant, else the
    // creation": an item has both ends of a range or neither (the item metadata contract).
    interval: { start: itemStart('o'), end: itemEnd('o') },
  },
  start_datetime: { sql: `CASE WHEN ${isRange} THEN o.start_datetime END`, type: 'timestamp' },
  end_datetime: { sql: `CASE WHEN ${isRange} THEN o.end_datetime END`, type: 'timestamp' },
  geometry: { sql: 'o.footprint', type: 'geometry' },
  title: { sql: 'o.title', type: 'string' },
  description: { sql: 'o.description', type: 'string' },
  created: { sql: 'o.created_at', type: 'timestamp' },
  updated: { sql: 'o.updated_at', type: 'timestamp' },
};

/** The fixed queryables' names and types, for `/queryables`. */
export const fixedQueryables: ReadonlyArray<readonly [string, Queryable['type']]> = Object.entries(
  itemQueryables,
).map(([name, queryable]) => [name, queryable.type] as const);

/**
 * Any other name is a free-form property of any JSON type. The name is written as a SQL string literal
 * (quotes doubled; standard_conforming_strings is on in every supported PostgreSQL): binding it as a
 * parameter is not possible here, since the library may resolve a name more than once and PostgreSQL
 * refuses a parameter the text never uses. A NUL cannot be in a PostgreSQL string at all.
 */
export function propertySql(name: string): string {
  if (name.includes('\u0000')) throw new Cql2Error('a property name cannot hold a NUL character');
  return `(o.properties->'${name.replaceAll("'", "''")}')`;
}

function propertyQueryable(name: string): Queryable {
  return { sql: propertySql(name), type: 'json' };
}

export function resolveItemQueryable(name: string): Queryable {
  return Object.hasOwn(itemQueryables, name) ? (itemQueryables[name] as Queryable) : propertyQueryable(name);
}

/** The filter parameters of a request, as given (GET: strings; POST: `filter` may be CQL2 JSON). */
export interface FilterParameters {
  readonly filter?: unknown;
  readonly 'filter-lang'?: string | undefined;
  readonly 'filter-crs'?: string | undefined;
}

function filterProblem(error: Cql2Error): HttpProblem {
  return new HttpProblem(400, `filter: ${error.message}`, 'INVALID_FILTER');
}

/**
 * The request's filter as a search condition, or none. `defaultLang` is the encoding when `filter-lang`
 * is absent: cql2-text for a GET (OGC API Features Part 3), for a POST a string is text and anything
 * else JSON. Every refusal is a 400 with the library's message (position and expected tokens for text).
 * The filter is translated once, here, so a bad one is refused before any query runs. `resolve` names
 * the queryables: the items' unless a list of something else (collections) filters its own.
 */
export function itemFilterCondition(
  parameters: FilterParameters,
  defaultLang: 'cql2-text' | undefined,
  resolve: QueryableResolver = resolveItemQueryable,
): ItemCondition | null {
  const filter = parameters.filter;
  const lang = parameters['filter-lang'];
  const crs = parameters['filter-crs'];
  // filter-lang and filter-crs are checked without a filter too: a misspelt one should not go unnoticed.
  const given = filter ?? (lang === 'cql2-json' ? true : 'TRUE');
  let node: Cql2Node;
  try {
    node = parseCql2Filter({ filter: given, lang: lang ?? defaultLang, crs });
    // A dry run: types, unknown functions and geometry problems are found before the search runs.
    cql2ToSql(node, resolve, []);
  } catch (error) {
    if (error instanceof Cql2Error) throw filterProblem(error);
    throw error;
  }
  if (filter === undefined) return null;
  return (params) => cql2ToSql(node, resolve, params.values);
}

/**
 * A CQL2 tree built from another parameter (the query extension's `query`) as a search condition: the
 * same SQL writer as `filter`, translated once as a dry run, so a type error is a 400 naming
 * `parameter` before any query runs.
 */
export function cql2Condition(
  node: Cql2Node,
  parameter: string,
  code: string,
  resolve: QueryableResolver = resolveItemQueryable,
): ItemCondition {
  try {
    cql2ToSql(node, resolve, []);
  } catch (error) {
    if (error instanceof Cql2Error) throw new HttpProblem(400, `${parameter}: ${error.message}`, code);
    throw error;
  }
  return (params) => cql2ToSql(node, resolve, params.values);
}
