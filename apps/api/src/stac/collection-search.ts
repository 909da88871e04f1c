import type { QueryParams } from '../browser/query-params.js';
import { bboxGeometry, parseBboxText } from './bbox.js';
import type { ContainerCondition } from './container-query.js';
import { parseDatetime } from './datetime-interval.js';
import { parseFreeText } from './free-text-request.js';
import { textMatchSql } from './free-text-sql.js';

/**
 * The collection search extension on `GET /collections` (docs/stac.md, "Collection search"): `bbox`,
 * `datetime` and `q`, each a condition over the collection row `o` meaning what the collection's STAC
 * JSON shows. A collection's extent is the one given on create, else the one computed from its ready
 * items (the whole world, from its creation, open-ended, before any), as `container-json.ts` writes it;
 * `bbox` and `datetime` match when any of its boxes, or any of its intervals, meets theirs.
 */
export interface CollectionSearchParameters {
  readonly bbox?: string | undefined;
  readonly datetime?: string | undefined;
  readonly q?: string | undefined;
}

/** The extent's boxes, as jsonb `[[w, s, e, n], …]`: given, else computed (the whole world without). */
const boxes = `CASE WHEN o.extent IS NOT NULL THEN o.extent -> 'spatial' -> 'bbox'
                    ELSE to_jsonb(ARRAY[COALESCE(o.items_bbox, '{-180,-90,180,90}'::float8[])]) END`;

/** The extent's intervals, as jsonb `[[start, end or null], …]`: given, else computed. */
const intervals = `CASE WHEN o.extent IS NOT NULL THEN o.extent -> 'temporal' -> 'interval'
                        ELSE jsonb_build_array(jsonb_build_array(COALESCE(o.items_start, o.created_at), o.items_end)) END`;

/** Title, description and keywords (the JSON text of the array: the parser keeps the words). */
const collectionText = `to_tsvector('simple'::regconfig, o.title || ' ' || COALESCE(o.description, '') || ' ' || COALESCE(o.keywords::text, ''))`;

function areaCondition(bbox: string): ContainerCondition {
  const area = bboxGeometry(parseBboxText(bbox));
  // A box across the antimeridian is two rectangles, on either side: read.portal_footprint splits it as
  // it does an item's bbox.
  return (params: QueryParams) => `EXISTS (
      SELECT 1 FROM jsonb_array_elements(${boxes}) AS extent_box(b)
       WHERE ST_Intersects(
               read.portal_footprint(NULL, ARRAY[(b->>0)::float8, (b->>1)::float8, (b->>2)::float8, (b->>3)::float8]),
               ST_SetSRID(ST_GeomFromGeoJSON(${params.add(JSON.stringify(area), 'text')}), 4326)))`;
}

function timeCondition(datetime: string): ContainerCondition {
  const { start, end } = parseDatetime(datetime);
  return (params: QueryParams) => {
    const parts = ['TRUE'];
    if (end !== null) parts.push(`(i->>0)::timestamptz <= ${params.add(end, 'timestamptz')}`);
    if (start !== null) {
      parts.push(`(i->>1 IS NULL OR (i->>1)::timestamptz >= ${params.add(start, 'timestamptz')})`);
    }
    return `EXISTS (SELECT 1 FROM jsonb_array_elements(${intervals}) AS extent_interval(i)
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
  return conditions;
}
