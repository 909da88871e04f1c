import type { QueryParams } from '@portal/read-model-core';
import { parseBboxText, type Bbox } from './bbox.js';
import type { ContainerCondition } from './container-query.js';
import { parseDatetime } from './datetime-interval.js';
import { parseFreeText } from './free-text-request.js';
import { textMatchSql } from './free-text-sql.js';
import { extentBoxesSql, extentIntervalsSql, extentTimeSql } from './collection-fields-sql.js';
import { resolveCollectionQueryable } from './collection-queryables.js';
import { cql2Condition, itemFilterCondition } from './item-filter.js';
import { queryNodeFromText } from './query-extension.js';

/**
 * The collection search extension on `GET /collections` (docs/stac.md, "Collection search"): `bbox`,
 * `datetime`, `q`, `filter` and `query`, each a condition over the collection row `o` meaning what the
 * collection's STAC JSON shows (`filter` and `query` over the collection queryables). A collection's extent is the one given on create, else the one computed from its ready
 * items (the whole world, from its creation, open-ended, before any), as `container-json.ts` writes it;
 * `bbox` and `datetime` match when any of its boxes, or any of its intervals, meets theirs.
 */
export interface CollectionSearchParameters {
  readonly bbox?: string | undefined;
  readonly datetime?: string | undefined;
  readonly q?: string | undefined;
  readonly filter?: string | undefined;
  readonly 'filter-lang'?: string | undefined;
  readonly 'filter-crs'?: string | undefined;
  readonly query?: string | undefined;
}

/**
 * Whether any box of the collection row's extent meets the search box, as closed rectangles on the
 * globe (either may cross the antimeridian: west > east). The boxes are rectangles, so four comparisons
 * per side answer what an intersection of polygons would, at none of its cost: the planner prices
 * ST_Intersects high enough that testing every collection's boxes with it compiled the statement (JIT),
 * which took longer than running it. The inventory's `bbox` filter asks the same of collections.
 */
export function extentMeetsBox(alias: string, box: Bbox, params: QueryParams): string {
  const [west, south, east, north] = box.map((value) => params.add(value, 'float8'));
  const [w, s, e, n] = ['0', '1', '2', '3'].map((index) => `(b->>${index})::float8`);
  // One side of the box (a longitude range that does not cross) against the extent box, crossing or not.
  const meetsRange = (from: string, to: string) =>
    `(CASE WHEN ${w} <= ${e} THEN ${w} <= ${to} AND ${from} <= ${e} ELSE ${w} <= ${to} OR ${from} <= ${e} END)`;
  const longitudes =
    box[0] <= box[2]
      ? meetsRange(west ?? '', east ?? '')
      : `(${meetsRange(west ?? '', '180')} OR ${meetsRange('-180', east ?? '')})`;
  return `EXISTS (
      SELECT 1 FROM jsonb_array_elements(${extentBoxesSql(alias)}) AS extent_box(b)
       WHERE ${s} <= ${north} AND ${south} <= ${n} AND ${longitudes})`;
}

/** Title, description and keywords (the JSON text of the array: the parser keeps the words). */
const collectionText = `to_tsvector('simple'::regconfig, o.title || ' ' || COALESCE(o.description, '') || ' ' || COALESCE(o.keywords::text, ''))`;

function areaCondition(bbox: string): ContainerCondition {
  const box = parseBboxText(bbox);
  return (params: QueryParams) => extentMeetsBox('o', box, params);
}

function timeCondition(datetime: string): ContainerCondition {
  const { start, end } = parseDatetime(datetime);
  return (params: QueryParams) => {
    const parts = ['TRUE'];
    // A null end, or a stored time that is none (an old extent), is open, as the JSON shows it.
    const startOf = extentTimeSql(`(i->>0)`);
    const endOf = extentTimeSql(`(i->>1)`);
    if (end !== null) parts.push(`(${startOf} IS NULL OR ${startOf} <= ${params.add(end, 'timestamptz')})`);
    if (start !== null) parts.push(`(${endOf} IS NULL OR ${endOf} >= ${params.add(start, 'timestamptz')})`);
    return `EXISTS (SELECT 1 FROM jsonb_array_elements(${extentIntervalsSql('o')}) AS extent_interval(i)
                     WHERE ${parts.join(' AND ')})`;
  };
}

/** The conditions of a collection search; each parameter is checked (400) before any query runs. */
export function collectionSearchConditions(parameters: CollectionSearchParameters): ContainerCondition[] {
  const conditions: ContainerCondition[] = [];
  if (parameters.bbox !== undefined) conditions.push(areaCondition(parameters.bbox));
  if (parameters.datetime !== undefined) conditions.push(timeCondition(parameters.datetime));
  if (parameters.q !== undefined) {
    const text = parseFreeText(parameters.q);
    conditions.push((params) => textMatchSql(collectionText, text, params));
  }
  // CQL2 (text unless filter-lang says JSON) and the query extension: the search's own translation,
  // with the collection queryables; filter-lang and filter-crs are checked without a filter too.
  const filter = itemFilterCondition(parameters, 'cql2-text', resolveCollectionQueryable);
  if (filter !== null) conditions.push(filter);
  if (parameters.query !== undefined) {
    const node = queryNodeFromText(parameters.query, resolveCollectionQueryable);
    if (node !== null) {
      conditions.push(cql2Condition(node, 'query', 'INVALID_QUERY', resolveCollectionQueryable));
    }
  }
  return conditions;
}
