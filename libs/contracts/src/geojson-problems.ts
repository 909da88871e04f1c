/**
 * Walks a request's geometry by hand and reports its FIRST problem, with the path to it. A geometry
 * may hold 100,000 positions: zod would report every bad one (a 400 of megabytes) and would parse
 * all of an over-long geometry before its length could be refused. This walk stops at the first
 * problem and at the first position past the bound.
 */

/** Invented bound: positions in one geometry, all members together. */
export const MAX_GEOMETRY_POSITIONS = 100_000;

const singleGeometryTypes = [
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
] as const;
type SingleGeometryType = (typeof singleGeometryTypes)[number];

const GEOMETRY_MESSAGES = {
  geometry: 'a GeoJSON geometry object',
  position: 'a position: [longitude, latitude] or [longitude, latitude, altitude]',
  longitude: 'must be a longitude from -180 to 180',
  latitude: 'must be a latitude from -90 to 90',
  ringOpen: 'a linear ring must be closed (its first and last positions equal)',
  ringShort: 'a linear ring must have at least 4 positions',
  nestedCollection: 'must not be GeometryCollection inside a GeometryCollection',
  tooManyPositions: `must have at most ${MAX_GEOMETRY_POSITIONS} positions, all members together`,
  bbox: '4 numbers [west, south, east, north] or 6 [west, south, lowest, east, north, highest]',
} as const;

export interface GeometryProblem {
  /** From the geometry to the offending value, e.g. `['coordinates', 0, 3]`. */
  path: PropertyKey[];
  message: string;
}

interface Walk {
  positions: number;
}

type Check = (value: unknown, walk: Walk) => GeometryProblem | undefined;

const problem = (message: string, ...path: PropertyKey[]): GeometryProblem => ({ path, message });

/** Puts `segment` in front of a problem found below it. */
function under(segment: PropertyKey, found: GeometryProblem | undefined): GeometryProblem | undefined {
  found?.path.unshift(segment);
  return found;
}

function mustBe(value: unknown, what: string): GeometryProblem {
  return problem(value === undefined ? 'is required' : `must be ${what}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function firstNonNumber(values: readonly unknown[]): GeometryProblem | undefined {
  const index = values.findIndex((value) => !isNumber(value));
  return index === -1 ? undefined : problem(`must be a number`, index);
}

function longitudeProblem(value: number, index: number): GeometryProblem | undefined {
  return value >= -180 && value <= 180 ? undefined : problem(GEOMETRY_MESSAGES.longitude, index);
}

function latitudeProblem(value: number, index: number): GeometryProblem | undefined {
  return value >= -90 && value <= 90 ? undefined : problem(GEOMETRY_MESSAGES.latitude, index);
}

const checkPosition: Check = (value, walk) => {
  // Counted before anything else, so an over-long geometry stops here whatever follows.
  walk.positions += 1;
  if (walk.positions > MAX_GEOMETRY_POSITIONS) return problem(GEOMETRY_MESSAGES.tooManyPositions);
  if (!Array.isArray(value) || value.length < 2 || value.length > 3) {
    return mustBe(value, GEOMETRY_MESSAGES.position);
  }
  const found = firstNonNumber(value);
  if (found !== undefined) return found;
  const [longitude, latitude] = value as [number, number, ...number[]];
  return longitudeProblem(longitude, 0) ?? latitudeProblem(latitude, 1);
};

interface ListRule {
  what: string;
  min: number;
  tooShort: string;
}

/**
 * An array of at least `min` elements, each passing `element`. The elements are checked before the
 * length, so a level left out (a ring given as a polygon) is named as such, not as a short array.
 */
function listOf(element: Check, rule: ListRule): Check {
  return (value, walk) => {
    if (!Array.isArray(value)) return mustBe(value, rule.what);
    const elements: unknown[] = value;
    for (const [index, item] of elements.entries()) {
      const found = under(index, element(item, walk));
      if (found !== undefined) return found;
    }
    return elements.length < rule.min ? problem(rule.tooShort) : undefined;
  };
}

const positions = (min: number, tooShort: string) =>
  listOf(checkPosition, { what: 'an array of positions', min, tooShort });

const checkLineString = positions(2, 'must have at least 2 positions');

const checkOpenRing = positions(4, GEOMETRY_MESSAGES.ringShort);
/** RFC 7946 §3.1.6: closed means the last position repeats the first, number for number. */
const checkRing: Check = (value, walk) => {
  const found = checkOpenRing(value, walk);
  if (found !== undefined || !Array.isArray(value)) return found;
  const ring = value as number[][];
  const first = ring[0] ?? [];
  const last = ring[ring.length - 1] ?? [];
  const closed = first.length === last.length && first.every((number, index) => number === last[index]);
  return closed ? undefined : problem(GEOMETRY_MESSAGES.ringOpen, ring.length - 1);
};

const checkPolygon = listOf(checkRing, {
  what: 'an array of linear rings',
  min: 1,
  tooShort: 'must have at least 1 linear ring',
});

const coordinateChecks: Record<SingleGeometryType, Check> = {
  Point: checkPosition,
  MultiPoint: positions(1, 'must have at least 1 position'),
  LineString: checkLineString,
  MultiLineString: listOf(checkLineString, {
    what: 'an array of line strings',
    min: 1,
    tooShort: 'must have at least 1 line string',
  }),
  Polygon: checkPolygon,
  MultiPolygon: listOf(checkPolygon, {
    what: 'an array of polygons',
    min: 1,
    tooShort: 'must have at least 1 polygon',
  }),
};

function isSingleType(type: unknown): type is SingleGeometryType {
  return singleGeometryTypes.includes(type as SingleGeometryType);
}

/** RFC 7946 §5: 2×n numbers, the lows of every axis then the highs; south ≤ north as in `bboxSchema`. */
function checkGeometryBbox(value: unknown): GeometryProblem | undefined {
  if (!Array.isArray(value) || (value.length !== 4 && value.length !== 6)) {
    return mustBe(value, GEOMETRY_MESSAGES.bbox);
  }
  const found = firstNonNumber(value);
  if (found !== undefined) return found;
  const numbers = value as number[];
  const axes = numbers.length / 2;
  const [west, south] = numbers as [number, number];
  const [east, north] = numbers.slice(axes) as [number, number];
  const rangeProblem =
    longitudeProblem(west, 0) ??
    latitudeProblem(south, 1) ??
    longitudeProblem(east, axes) ??
    latitudeProblem(north, axes + 1);
  if (rangeProblem !== undefined) return rangeProblem;
  return south > north ? problem(`south (${south}) must not be greater than north (${north})`) : undefined;
}

function checkGeometry(value: unknown, walk: Walk, inCollection: boolean): GeometryProblem | undefined {
  if (!isObject(value)) return mustBe(value, GEOMETRY_MESSAGES.geometry);
  const { type } = value;
  if (type === 'GeometryCollection' && inCollection) {
    return problem(GEOMETRY_MESSAGES.nestedCollection, 'type');
  }
  if (type !== 'GeometryCollection' && !isSingleType(type)) {
    const types = inCollection ? singleGeometryTypes : [...singleGeometryTypes, 'GeometryCollection'];
    return under('type', mustBe(type, `one of ${types.join(', ')}`));
  }
  // Strict like every request object; a foreign `crs` member would also make PostGIS reproject.
  const member = type === 'GeometryCollection' ? 'geometries' : 'coordinates';
  const unknownKey = Object.keys(value).find((key) => key !== 'type' && key !== member && key !== 'bbox');
  if (unknownKey !== undefined) return problem('is not an allowed field', unknownKey);

  const found =
    type === 'GeometryCollection'
      ? under('geometries', checkMembers(value.geometries, walk))
      : under('coordinates', coordinateChecks[type](value.coordinates, walk));
  if (found !== undefined || value.bbox === undefined) return found;
  return under('bbox', checkGeometryBbox(value.bbox));
}

/** A collection's members: single geometries only, so nesting stops at one level. */
const checkMembers = listOf((value, walk) => checkGeometry(value, walk, true), {
  what: 'an array of geometries',
  min: 1,
  tooShort: 'must have at least 1 geometry',
});

/** The first reason `value` is not a geometry this service accepts, or `undefined` when it is one. */
export function findGeometryProblem(value: unknown): GeometryProblem | undefined {
  const walk: Walk = { positions: 0 };
  const found = checkGeometry(value, walk, false);
  // Whatever the walk was looking at when it ran out, the geometry as a whole is too long.
  return walk.positions > MAX_GEOMETRY_POSITIONS ? problem(GEOMETRY_MESSAGES.tooManyPositions) : found;
}
