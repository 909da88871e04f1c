/** [west, south, east, north] in degrees (WGS84); west > east crosses the antimeridian. */
export type SearchBox = readonly [west: number, south: number, east: number, north: number];

/** A box, or what is wrong with it (the text after `bbox: ` in a 400 answer). */
export type SearchBoxResult = { readonly box: SearchBox } | { readonly problem: string };

/**
 * A `bbox` as the STAC search and the inventory take it: 4 numbers, or 6 with the heights
 * (`[west, south, minHeight, east, north, maxHeight]`, as GeoJSON orders them). Footprints are 2D, so
 * heights only have to be in order. One rule for every endpoint that filters by a box, so each answers
 * the same bad box with the same words.
 */
export function checkSearchBox(values: readonly unknown[]): SearchBoxResult {
  if (values.length !== 4 && values.length !== 6) {
    return { problem: `must be 4 numbers (west,south,east,north) or 6 with heights; got ${values.length}` };
  }
  if (!values.every((value) => typeof value === 'number' && Number.isFinite(value))) {
    return { problem: 'must hold numbers only' };
  }
  const numbers = values as readonly number[];
  const [west, south, east, north] =
    numbers.length === 6
      ? [numbers[0], numbers[1], numbers[3], numbers[4]]
      : [numbers[0], numbers[1], numbers[2], numbers[3]];
  if (west === undefined || south === undefined || east === undefined || north === undefined) {
    return { problem: 'must hold 4 or 6 numbers' };
  }
  if (numbers.length === 6 && (numbers[2] ?? 0) > (numbers[5] ?? 0)) {
    return { problem: 'the minimum height must not be greater than the maximum height' };
  }
  for (const [name, value] of [
    ['west', west],
    ['east', east],
  ] as const) {
    if (value < -180 || value > 180)
      return { problem: `${name} (${value}) must be a longitude from -180 to 180` };
  }
  for (const [name, value] of [
    ['south', south],
    ['north', north],
  ] as const) {
    if (value < -90 || value > 90) return { problem: `${name} (${value}) must be a latitude from -90 to 90` };
  }
  if (south > north) return { problem: `south (${south}) must not be greater than north (${north})` };
  return { box: [west, south, east, north] };
}

/** `bbox=1,2,3,4` of a query string: every part must be a plain decimal number. */
export function checkSearchBoxText(text: string): SearchBoxResult {
  // `Number('')` is 0 and `Number('0x1')` 1: only decimal notation counts, the rest is NaN (refused).
  const numbers = text
    .split(',')
    .map((part) =>
      /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(part) ? Number(part) : Number.NaN,
    );
  return checkSearchBox(numbers);
}
