import type { GeoJsonGeometry, GeoJsonPosition, GeoJsonSingleGeometry } from './geometry.js';
import type { BBox } from './types.js';
import { unreachable } from './unreachable.js';

function* positionsOfSingle(geometry: GeoJsonSingleGeometry): Generator<GeoJsonPosition> {
  switch (geometry.type) {
    case 'Point':
      yield geometry.coordinates;
      return;
    case 'MultiPoint':
    case 'LineString':
      yield* geometry.coordinates;
      return;
    case 'MultiLineString':
    case 'Polygon':
      for (const line of geometry.coordinates) yield* line;
      return;
    case 'MultiPolygon':
      for (const polygon of geometry.coordinates) for (const ring of polygon) yield* ring;
      return;
    default:
      unreachable(geometry);
  }
}

function* positionsOf(geometry: GeoJsonGeometry): Generator<GeoJsonPosition> {
  if (geometry.type === 'GeometryCollection') {
    for (const member of geometry.geometries) yield* positionsOfSingle(member);
  } else {
    yield* positionsOfSingle(geometry);
  }
}

/**
 * [west, south, east, north]: the least and greatest longitude and latitude over every position of
 * every member; altitude is ignored. Never an antimeridian-crossing box (west > east): RFC 7946 §3.1.9
 * splits a geometry that crosses the antimeridian into parts on either side, and a box over those
 * parts spans the whole width, loose but never missing a position. `undefined` for a geometry without
 * positions (empty coordinates), which the request schema refuses but the type allows.
 */
export function bboxOfGeometry(geometry: GeoJsonGeometry): BBox | undefined {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (const [longitude, latitude] of positionsOf(geometry)) {
    west = Math.min(west, longitude);
    east = Math.max(east, longitude);
    south = Math.min(south, latitude);
    north = Math.max(north, latitude);
  }
  return west === Infinity ? undefined : [west, south, east, north];
}
