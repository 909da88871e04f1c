import type { Geometry, Position } from './ast.js';
import { MAX_CQL2_DEPTH } from './limits.js';

/**
 * Why a GeoJSON geometry is unusable as a CQL2 literal (filter-crs is EPSG:4326: longitude, latitude),
 * or undefined. Counts positions into `counter` for the coordinates limit.
 */
export function geometryProblem(
  value: unknown,
  counter: { positions: number },
  depth = 0,
): string | undefined {
  if (depth > MAX_CQL2_DEPTH) return `geometry collections nest deeper than ${MAX_CQL2_DEPTH} levels`;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'a geometry must be an object';
  const geometry = value as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  switch (geometry.type) {
    case 'Point':
      return positionProblem(geometry.coordinates, counter);
    case 'LineString':
    case 'MultiPoint':
      return positionsProblem(geometry.coordinates, geometry.type === 'LineString' ? 2 : 1, counter);
    case 'Polygon':
      return ringsProblem(geometry.coordinates, counter);
    case 'MultiLineString':
      return listProblem(geometry.coordinates, (line) => positionsProblem(line, 2, counter));
    case 'MultiPolygon':
      return listProblem(geometry.coordinates, (rings) => ringsProblem(rings, counter));
    case 'GeometryCollection':
      return listProblem(geometry.geometries, (member) => geometryProblem(member, counter, depth + 1));
    default:
      return `unknown geometry type ${JSON.stringify(geometry.type)}`;
  }
}

function listProblem(value: unknown, check: (item: unknown) => string | undefined): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return 'a geometry needs a non-empty list of members';
  for (const item of value) {
    const problem = check(item);
    if (problem) return problem;
  }
  return undefined;
}

function positionProblem(value: unknown, counter: { positions: number }): string | undefined {
  counter.positions += 1;
  if (!Array.isArray(value) || value.length < 2 || value.length > 3) {
    return 'a position has two or three numbers';
  }
  if (!value.every((n) => typeof n === 'number' && Number.isFinite(n))) return 'a position holds numbers';
  const [x, y] = value as number[];
  if (x === undefined || y === undefined || x < -180 || x > 180 || y < -90 || y > 90) {
    return 'a position is longitude, latitude in EPSG:4326 (-180..180, -90..90)';
  }
  return undefined;
}

function positionsProblem(
  value: unknown,
  minimum: number,
  counter: { positions: number },
): string | undefined {
  if (!Array.isArray(value) || value.length < minimum) return `a line needs at least ${minimum} positions`;
  return listProblem(value, (position) => positionProblem(position, counter));
}

function ringsProblem(value: unknown, counter: { positions: number }): string | undefined {
  return listProblem(value, (ring) => {
    if (!Array.isArray(ring) || ring.length < 4) return 'a polygon ring needs at least 4 positions';
    const problem = positionsProblem(ring, 4, counter);
    if (problem) return problem;
    const first = ring[0] as Position;
    const last = ring[ring.length - 1] as Position;
    if (first.length !== last.length || first.some((n, i) => n !== last[i]))
      return 'a polygon ring must be closed';
    return undefined;
  });
}

export function bboxProblem(values: readonly number[]): string | undefined {
  if (values.length !== 4 && values.length !== 6) return 'a bbox has 4 or 6 numbers';
  if (!values.every((n) => Number.isFinite(n))) return 'a bbox holds numbers';
  const half = values.length / 2;
  const [west, south] = values as [number, number];
  const east = values[half] as number;
  const north = values[half + 1] as number;
  if (west < -180 || east > 180 || south < -90 || north > 90) return 'a bbox lies within -180..180, -90..90';
  if (south > north) return 'a bbox has south <= north';
  if (west > east) return 'a bbox crossing the antimeridian (west > east) is not supported';
  return undefined;
}

export function bboxGeometry(values: readonly number[]): Geometry {
  const half = values.length / 2;
  const [west, south] = values as [number, number];
  const east = values[half] as number;
  const north = values[half + 1] as number;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [west, south],
        [east, south],
        [east, north],
        [west, north],
        [west, south],
      ],
    ],
  };
}

/** A copy holding only `type` and `coordinates`/`geometries` (GeoJSON may carry `bbox`, `crs`, …). */
export function plainGeometry(geometry: Geometry): Geometry {
  if (geometry.type === 'GeometryCollection') {
    return { type: geometry.type, geometries: geometry.geometries.map(plainGeometry) };
  }
  return { type: geometry.type, coordinates: structuredClone(geometry.coordinates) } as Geometry;
}
