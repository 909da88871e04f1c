/** West, south, east, north in degrees: the box the STAC search's `bbox` takes. */
export type Box = readonly [west: number, south: number, east: number, north: number];

/** A bbox of 4 numbers, or of 6 (with heights: west, south, low, east, north, high), as a 2D box. */
export function boxOf(bbox: readonly number[] | null | undefined): Box | null {
  if (!bbox) return null;
  if (bbox.length === 4) return [bbox[0] ?? 0, bbox[1] ?? 0, bbox[2] ?? 0, bbox[3] ?? 0];
  if (bbox.length === 6) return [bbox[0] ?? 0, bbox[1] ?? 0, bbox[3] ?? 0, bbox[4] ?? 0];
  return null;
}

/**
 * The box as a GeoJSON polygon, exterior ring counterclockwise as RFC 7946 writes it (the renderer
 * rewinds it for the sphere). A box across the antimeridian (west > east) runs east past 180°.
 */
export function boxPolygon(box: Box): { type: 'Polygon'; coordinates: number[][][] } {
  const [west, south, rawEast, north] = box;
  const east = rawEast < west ? rawEast + 360 : rawEast;
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

/**
 * The box as a polygon whose south and north edges follow their parallels: d3-geo joins two points
 * by the great circle between them, which bows towards the pole, so these edges get a point every
 * degree of longitude (the meridians are great circles already).
 */
export function boxOutline(box: Box): { type: 'Polygon'; coordinates: number[][][] } {
  const [west, south, rawEast, north] = box;
  const east = rawEast < west ? rawEast + 360 : rawEast;
  const steps = Math.max(1, Math.ceil(east - west));
  const along = (latitude: number) =>
    Array.from({ length: steps + 1 }, (_, index) => [west + ((east - west) * index) / steps, latitude]);
  const ring = [...along(south), ...along(north).reverse()];
  return { type: 'Polygon', coordinates: [[...ring, [west, south]]] };
}

/** From a screen point to longitude and latitude; `null` (or non-finite) off the globe. */
export type Invert = (x: number, y: number) => readonly [number, number] | null;

const SAMPLES = 9;
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * The geographic box a rectangle dragged on the map covers. The projection curves meridians and
 * parallels, so the corners alone would miss parts of the rectangle: a grid of points inside it is
 * mapped back, and the box spans those that land on the globe. `null` when none does or the
 * rectangle has no area.
 */
export function boxOfSelection(invert: Invert, x0: number, y0: number, x1: number, y1: number): Box | null {
  if (x0 === x1 || y0 === y1) return null;
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (let row = 0; row < SAMPLES; row += 1) {
    for (let column = 0; column < SAMPLES; column += 1) {
      const x = x0 + ((x1 - x0) * column) / (SAMPLES - 1);
      const y = y0 + ((y1 - y0) * row) / (SAMPLES - 1);
      const point = invert(x, y);
      if (!point || !Number.isFinite(point[0]) || !Number.isFinite(point[1])) continue;
      west = Math.min(west, point[0]);
      east = Math.max(east, point[0]);
      south = Math.min(south, point[1]);
      north = Math.max(north, point[1]);
    }
  }
  if (!Number.isFinite(west) || west === east || south === north) return null;
  return [
    round(Math.max(-180, west)),
    round(Math.max(-90, south)),
    round(Math.min(180, east)),
    round(Math.min(90, north)),
  ];
}

/** `?bbox=w,s,e,n` of the map page's URL; `null` when absent or not four numbers in range. */
export function parseBoxParam(text: string | null): Box | null {
  if (text === null) return null;
  const values = text.split(',').map(Number);
  const box = boxOf(values.length === 4 ? values : null);
  if (!box || box.some((value) => !Number.isFinite(value))) return null;
  const [west, south, east, north] = box;
  const inRange = (lon: number) => lon >= -180 && lon <= 180;
  if (!inRange(west) || !inRange(east) || south < -90 || north > 90 || south > north) return null;
  return box;
}

export const boxParam = (box: Box): string => box.join(',');
