import type { QueryParams } from '@portal/read-model-core';

/**
 * The area of `intersects` (any GeoJSON geometry) as PostGIS geometry, meaning exactly what it covers
 * (docs/stac.md, "Item search"):
 *
 * - `method=structure` repairs a polygon as "its shells' union less its holes' union", and a
 *   MultiPolygon as the union of its repaired parts. The default method (`linework`) rebuilds the area
 *   from the rings' lines, which turns the overlap of two parts (and a part lying over another's hole)
 *   into a hole: a point covered twice then matched nothing.
 * - `keepcollapsed=true` keeps a degenerate line or ring (all positions equal) as the point or line it
 *   still touches, as the default method did, rather than an empty geometry that matches nothing.
 * - `ST_UnaryUnion` merges the members of a GeometryCollection, which the repair fixes one by one: GEOS
 *   raises on a collection whose polygons overlap, and the search would answer 500.
 *
 * Every function is immutable over the one bound parameter, so PostgreSQL computes the area once per
 * statement, not per row.
 */
export function searchAreaSql(area: unknown, params: QueryParams): string {
  const geometry = `ST_SetSRID(ST_GeomFromGeoJSON(${params.add(JSON.stringify(area), 'text')}), 4326)`;
  return `ST_UnaryUnion(ST_MakeValid(${geometry}, 'method=structure keepcollapsed=true'))`;
}
