/**
 * Geometries the request schema must accept, one or more of every kind and edge; the PostGIS int test
 * feeds the same list to ST_GeomFromGeoJSON, so whatever the schema lets through is known to parse.
 */

const square = (west: number, south: number, size: number) => [
  [west, south],
  [west + size, south],
  [west + size, south + size],
  [west, south + size],
  [west, south],
];

export const validGeometries: readonly (readonly [name: string, geometry: Record<string, unknown>])[] = [
  ['a point', { type: 'Point', coordinates: [7.44, 46.95] }],
  ['a point with an altitude', { type: 'Point', coordinates: [7.44, 46.95, 540.5] }],
  ['a point at the south-west corner of the world', { type: 'Point', coordinates: [-180, -90] }],
  ['a point at the north-east corner of the world', { type: 'Point', coordinates: [180, 90] }],
  ['a point with the smallest and a negative zero', { type: 'Point', coordinates: [-0, 5e-324] }],
  ['a point with a negative altitude', { type: 'Point', coordinates: [35.5, 31.5, -430] }],
  [
    'a multipoint',
    {
      type: 'MultiPoint',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    },
  ],
  ['a multipoint of one point', { type: 'MultiPoint', coordinates: [[0, 0]] }],
  [
    'a line string',
    {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [10, 10],
        [20, 0],
      ],
    },
  ],
  [
    'a line string mixing 2D and 3D positions',
    {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1, 100],
      ],
    },
  ],
  [
    'a line string of two equal positions',
    {
      type: 'LineString',
      coordinates: [
        [3, 3],
        [3, 3],
      ],
    },
  ],
  [
    'a multiline string',
    {
      type: 'MultiLineString',
      coordinates: [
        [
          [170, 10],
          [180, 12],
        ],
        [
          [-180, 12],
          [-170, 14],
        ],
      ],
    },
  ],
  ['a polygon', { type: 'Polygon', coordinates: [square(5.9, 45.8, 4)] }],
  ['a polygon with a hole', { type: 'Polygon', coordinates: [square(0, 0, 10), square(2, 2, 2)] }],
  [
    'a polygon of the smallest ring (a degenerate triangle)',
    {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    },
  ],
  [
    'a self-intersecting bow tie (parses, though not OGC-valid)',
    {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    },
  ],
  [
    'a 3D polygon',
    {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0, 1],
          [1, 0, 2],
          [1, 1, 3],
          [0, 0, 1],
        ],
      ],
    },
  ],
  [
    'the whole world as a polygon',
    {
      type: 'Polygon',
      coordinates: [
        [
          [-180, -90],
          [180, -90],
          [180, 90],
          [-180, 90],
          [-180, -90],
        ],
      ],
    },
  ],
  ['a multipolygon', { type: 'MultiPolygon', coordinates: [[square(0, 0, 1)], [square(10, 10, 1)]] }],
  [
    'a multipolygon split at the antimeridian',
    { type: 'MultiPolygon', coordinates: [[square(170, -10, 10)], [square(-180, -10, 10)]] },
  ],
  [
    'a geometry collection of every single kind',
    {
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [1, 2] },
        { type: 'MultiPoint', coordinates: [[1, 2]] },
        {
          type: 'LineString',
          coordinates: [
            [1, 2],
            [3, 4],
          ],
        },
        {
          type: 'MultiLineString',
          coordinates: [
            [
              [1, 2],
              [3, 4],
            ],
          ],
        },
        { type: 'Polygon', coordinates: [square(0, 0, 1)] },
        { type: 'MultiPolygon', coordinates: [[square(0, 0, 1)]] },
      ],
    },
  ],
  [
    'a geometry collection mixing 2D and 3D members',
    {
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [1, 2, 3] },
        { type: 'Point', coordinates: [4, 5] },
      ],
    },
  ],
  ['a point with a 2D bbox', { type: 'Point', coordinates: [1, 2], bbox: [1, 2, 1, 2] }],
  [
    'a line string with a 3D bbox',
    {
      type: 'LineString',
      coordinates: [
        [0, 0, 5],
        [1, 1, 10],
      ],
      bbox: [0, 0, 5, 1, 1, 10],
    },
  ],
  [
    'a polygon with an antimeridian-crossing bbox',
    { type: 'Polygon', coordinates: [square(170, 0, 10)], bbox: [170, 0, -170, 10] },
  ],
  [
    'a geometry collection with a bbox on it and on a member',
    {
      type: 'GeometryCollection',
      geometries: [{ type: 'Point', coordinates: [1, 2], bbox: [1, 2, 1, 2] }],
      bbox: [1, 2, 1, 2],
    },
  ],
];

/** A line string of `count` distinct positions spread over the world. */
export function longLineString(count: number): Record<string, unknown> {
  const coordinates = Array.from({ length: count }, (_, index) => [
    (index % 36_000) / 100 - 180,
    (index % 18_000) / 100 - 90,
  ]);
  return { type: 'LineString', coordinates };
}
