import { badParameter } from './stac-problem.js';

/** [west, south, east, north] in degrees; west > east crosses the antimeridian. */
export type Bbox = readonly [number, number, number, number];

const invalid = (message: string) => badParameter('bbox', message, 'INVALID_BBOX');

/**
 * A search's `bbox`: 4 numbers, or 6 with the heights (`[west, south, minHeight, east, north,
 * maxHeight]`, as GeoJSON orders them). Footprints are 2D, so heights only have to be in order.
 */
export function parseBbox(values: readonly unknown[]): Bbox {
  if (values.length !== 4 && values.length !== 6) {
    throw invalid(`must be 4 numbers (west,south,east,north) or 6 with heights; got ${values.length}`);
  }
  if (!values.every((value) => typeof value === 'number' && Number.isFinite(value))) {
    throw invalid('must hold numbers only');
  }
  const numbers = values as readonly number[];
  const [west, south, east, north] =
    numbers.length === 6
      ? [numbers[0], numbers[1], numbers[3], numbers[4]]
      : [numbers[0], numbers[1], numbers[2], numbers[3]];
  if (west === undefined || south === undefined || east === undefined || north === undefined) {
    throw invalid('must hold 4 or 6 numbers');
  }
  if (numbers.length === 6 && (numbers[2] ?? 0) > (numbers[5] ?? 0)) {
    throw invalid('the minimum height must not be greater than the maximum height');
  }
  for (const [name, value] of [
    ['west', west],
    ['east', east],
  ] as const) {
    if (value < -180 || value > 180) throw invalid(`${name} (${value}) must be a longitude from -180 to 180`);
  }
  for (const [name, value] of [
    ['south', south],
    ['north', north],
  ] as const) {
    if (value < -90 || value > 90) throw invalid(`${name} (${value}) must be a latitude from -90 to 90`);
  }
  if (south > north) throw invalid(`south (${south}) must not be greater than north (${north})`);
  return [west, south, east, north];
}

/** `bbox=1,2,3,4` of a GET: every part must be a plain decimal number. */
export function parseBboxText(text: string): Bbox {
  // `Number('')` is 0 and `Number('0x1')` 1: only decimal notation counts, the rest is NaN (refused).
  const numbers = text
    .split(',')
    .map((part) =>
      /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(part) ? Number(part) : Number.NaN,
    );
  return parseBbox(numbers);
}

/**
 * The box as a GeoJSON geometry: one polygon, or two when it crosses the antimeridian (one each side),
 * so that the search is one intersection test against the footprints whichever way the box lies.
 */
export function bboxGeometry([west, south, east, north]: Bbox): Record<string, unknown> {
  const ring = (w: number, e: number) => [
    [
      [w, south],
      [e, south],
      [e, north],
      [w, north],
      [w, south],
    ],
  ];
  if (west <= east) return { type: 'Polygon', coordinates: ring(west, east) };
  return { type: 'MultiPolygon', coordinates: [ring(west, 180), ring(-180, east)] };
}
