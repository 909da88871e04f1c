import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { geometrySchema, MAX_GEOMETRY_POSITIONS } from './geojson.js';
import { longLineString, validGeometries } from './test-support/geometries.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';

const position = 'must be a position: [longitude, latitude] or [longitude, latitude, altitude]';
const longitude = 'must be a longitude from -180 to 180';
const latitude = 'must be a latitude from -90 to 90';
const allTypes = 'Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon, GeometryCollection';
const singleTypes = 'Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon';
const ringOpen = 'a linear ring must be closed (its first and last positions equal)';
const bboxShape =
  'must be 4 numbers [west, south, east, north] or 6 [west, south, lowest, east, north, highest]';
const tooMany = `must have at most ${MAX_GEOMETRY_POSITIONS} positions, all members together`;

const unitSquare = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
  [0, 0],
];
const openSquare = unitSquare.slice(0, 4);

describe('geometrySchema accepts', () => {
  it.each(validGeometries)('%s, unchanged', (_name, geometry) => {
    expect(acceptanceOf(geometrySchema, geometry)).toEqual(geometry);
  });

  it(`a line string of exactly ${MAX_GEOMETRY_POSITIONS} positions`, () => {
    const geometry = longLineString(MAX_GEOMETRY_POSITIONS);
    expect(acceptanceOf(geometrySchema, geometry)).toEqual(geometry);
  });
});

describe('geometrySchema rejects, naming the place', () => {
  it.each<[string, unknown, string]>([
    ['null', null, 'must be a GeoJSON geometry object'],
    ['an array', [1, 2], 'must be a GeoJSON geometry object'],
    ['well-known text', 'POINT(1 2)', 'must be a GeoJSON geometry object'],
    ['no type', { coordinates: [1, 2] }, 'type: is required'],
    ['a lower-case type', { type: 'point', coordinates: [1, 2] }, `type: must be one of ${allTypes}`],
    ['a Feature', { type: 'Feature', geometry: null }, `type: must be one of ${allTypes}`],
    ['a number as type', { type: 1 }, `type: must be one of ${allTypes}`],
    ['a crs member', { type: 'Point', coordinates: [1, 2], crs: {} }, 'crs: is not an allowed field'],
    [
      'geometries on a point',
      { type: 'Point', coordinates: [1, 2], geometries: [] },
      'geometries: is not an allowed field',
    ],
    ['no coordinates', { type: 'Point' }, 'coordinates: is required'],
    ['a null position', { type: 'Point', coordinates: null }, `coordinates: ${position}`],
    ['a position of one number', { type: 'Point', coordinates: [1] }, `coordinates: ${position}`],
    ['a position of four numbers', { type: 'Point', coordinates: [1, 2, 3, 4] }, `coordinates: ${position}`],
    ['a string for a number', { type: 'Point', coordinates: [1, '2'] }, 'coordinates[1]: must be a number'],
    ['a null altitude', { type: 'Point', coordinates: [1, 2, null] }, 'coordinates[2]: must be a number'],
    ['longitude past 180', { type: 'Point', coordinates: [180.0001, 0] }, `coordinates[0]: ${longitude}`],
    ['longitude below -180', { type: 'Point', coordinates: [-181, 0] }, `coordinates[0]: ${longitude}`],
    ['latitude past 90', { type: 'Point', coordinates: [0, 90.5] }, `coordinates[1]: ${latitude}`],
    ['latitude below -90', { type: 'Point', coordinates: [0, -91] }, `coordinates[1]: ${latitude}`],
    [
      'latitude first (a swapped position)',
      { type: 'Point', coordinates: [46.95, 200] },
      `coordinates[1]: ${latitude}`,
    ],
    [
      'an empty multipoint',
      { type: 'MultiPoint', coordinates: [] },
      'coordinates: must have at least 1 position',
    ],
    [
      'a multipoint of bare numbers',
      { type: 'MultiPoint', coordinates: [0, 0] },
      `coordinates[0]: ${position}`,
    ],
    [
      'a bad point in a multipoint',
      {
        type: 'MultiPoint',
        coordinates: [
          [0, 0],
          [200, 0],
        ],
      },
      `coordinates[1][0]: ${longitude}`,
    ],
    [
      'a line string of one position',
      { type: 'LineString', coordinates: [[0, 0]] },
      'coordinates: must have at least 2 positions',
    ],
    [
      'a line string as text',
      { type: 'LineString', coordinates: 'x' },
      'coordinates: must be an array of positions',
    ],
    [
      'an empty multiline string',
      { type: 'MultiLineString', coordinates: [] },
      'coordinates: must have at least 1 line string',
    ],
    [
      'a short line in a multiline string',
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
          [[0, 0]],
        ],
      },
      'coordinates[1]: must have at least 2 positions',
    ],
    [
      'a polygon without rings',
      { type: 'Polygon', coordinates: [] },
      'coordinates: must have at least 1 linear ring',
    ],
    [
      'a polygon of one ring, not wrapped',
      { type: 'Polygon', coordinates: unitSquare },
      `coordinates[0][0]: ${position}`,
    ],
    [
      'a ring of three positions',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [0, 0],
          ],
        ],
      },
      'coordinates[0]: a linear ring must have at least 4 positions',
    ],
    ['an open ring', { type: 'Polygon', coordinates: [openSquare] }, `coordinates[0][3]: ${ringOpen}`],
    [
      'an open hole',
      {
        type: 'Polygon',
        coordinates: [
          unitSquare,
          [
            [0.2, 0.2],
            [0.4, 0.2],
            [0.4, 0.4],
            [0.2, 0.4],
            [0.2, 0.3],
          ],
        ],
      },
      `coordinates[1][4]: ${ringOpen}`,
    ],
    [
      'a ring closed in 2D but not in 3D',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0, 0],
            [1, 0, 0],
            [1, 1, 0],
            [0, 0, 5],
          ],
        ],
      },
      `coordinates[0][3]: ${ringOpen}`,
    ],
    [
      'a ring closed but for the altitude given once',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0, 0],
          ],
        ],
      },
      `coordinates[0][3]: ${ringOpen}`,
    ],
    [
      'an empty multipolygon',
      { type: 'MultiPolygon', coordinates: [] },
      'coordinates: must have at least 1 polygon',
    ],
    [
      'an empty polygon in a multipolygon',
      { type: 'MultiPolygon', coordinates: [[unitSquare], []] },
      'coordinates[1]: must have at least 1 linear ring',
    ],
    [
      'an open ring in a multipolygon',
      { type: 'MultiPolygon', coordinates: [[unitSquare], [unitSquare, openSquare]] },
      `coordinates[1][1][3]: ${ringOpen}`,
    ],
    ['a collection without geometries', { type: 'GeometryCollection' }, 'geometries: is required'],
    [
      'an empty collection',
      { type: 'GeometryCollection', geometries: [] },
      'geometries: must have at least 1 geometry',
    ],
    [
      'a collection with coordinates',
      { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [1, 2] }], coordinates: [] },
      'coordinates: is not an allowed field',
    ],
    [
      'a nested collection',
      {
        type: 'GeometryCollection',
        geometries: [{ type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [1, 2] }] }],
      },
      'geometries[0].type: must not be GeometryCollection inside a GeometryCollection',
    ],
    [
      'an unknown member type',
      { type: 'GeometryCollection', geometries: [{ type: 'Circle', coordinates: [1, 2] }] },
      `geometries[0].type: must be one of ${singleTypes}`,
    ],
    [
      'a null member',
      { type: 'GeometryCollection', geometries: [null] },
      'geometries[0]: must be a GeoJSON geometry object',
    ],
    [
      'a bad position in a member',
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [1, 2] },
          {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [0, 95],
            ],
          },
        ],
      },
      `geometries[1].coordinates[1][1]: ${latitude}`,
    ],
    [
      'a bbox of three numbers',
      { type: 'Point', coordinates: [1, 2], bbox: [0, 0, 1] },
      `bbox: ${bboxShape}`,
    ],
    [
      'a bbox of five numbers',
      { type: 'Point', coordinates: [1, 2], bbox: [0, 0, 1, 1, 2] },
      `bbox: ${bboxShape}`,
    ],
    ['a bbox as an object', { type: 'Point', coordinates: [1, 2], bbox: { west: 0 } }, `bbox: ${bboxShape}`],
    [
      'a bbox with text',
      { type: 'Point', coordinates: [1, 2], bbox: [0, '0', 1, 1] },
      'bbox[1]: must be a number',
    ],
    [
      'a bbox latitude out of range',
      { type: 'Point', coordinates: [1, 2], bbox: [0, -91, 1, 1] },
      `bbox[1]: ${latitude}`,
    ],
    [
      'a 3D bbox east out of range',
      { type: 'Point', coordinates: [1, 2], bbox: [0, 0, 0, 181, 1, 1] },
      `bbox[3]: ${longitude}`,
    ],
    [
      'a 3D bbox north out of range',
      { type: 'Point', coordinates: [1, 2], bbox: [0, 0, 0, 1, 95, 1] },
      `bbox[4]: ${latitude}`,
    ],
    [
      'a bbox with south above north',
      { type: 'Point', coordinates: [1, 2], bbox: [0, 5, 1, 4] },
      'bbox: south (5) must not be greater than north (4)',
    ],
    [
      'a bbox on a member with south above north',
      {
        type: 'GeometryCollection',
        geometries: [{ type: 'Point', coordinates: [1, 2], bbox: [0, 0, 0, 1, -1, 1] }],
      },
      'geometries[0].bbox: south (0) must not be greater than north (-1)',
    ],
  ])('%s', (_name, geometry, message) => {
    expect(rejectionOf(geometrySchema, geometry).message).toBe(message);
  });

  it('names the field inside a body: geometry.coordinates[0][3]', () => {
    const body = z.object({ geometry: geometrySchema });
    expect(rejectionOf(body, { geometry: { type: 'Polygon', coordinates: [openSquare] } }).message).toBe(
      `geometry.coordinates[0][3]: ${ringOpen}`,
    );
    expect(rejectionOf(body, {}).message).toBe('geometry: is required');
  });

  it('reports only the first problem, however many positions are wrong', () => {
    const coordinates = Array.from({ length: 10_000 }, () => [0, 100]);
    const { details } = rejectionOf(geometrySchema, { type: 'LineString', coordinates });
    expect(details).toEqual([{ path: 'coordinates[0][1]', message: latitude }]);
  });
});

describe('geometrySchema bounds the positions', () => {
  it(`rejects a line string of ${MAX_GEOMETRY_POSITIONS + 1} positions as a whole`, () => {
    expect(rejectionOf(geometrySchema, longLineString(MAX_GEOMETRY_POSITIONS + 1)).details).toEqual([
      { path: '', message: tooMany },
    ]);
  });

  it('counts every member of a collection together', () => {
    const half = longLineString(MAX_GEOMETRY_POSITIONS / 2);
    const collection = { type: 'GeometryCollection', geometries: [half, half] };
    acceptanceOf(geometrySchema, collection);
    const over = {
      type: 'GeometryCollection',
      geometries: [half, half, { type: 'Point', coordinates: [0, 0] }],
    };
    expect(rejectionOf(geometrySchema, over).message).toBe(tooMany);
  });

  it('counts rings of every polygon of a multipolygon', () => {
    const ring = (longLineString(MAX_GEOMETRY_POSITIONS / 4 - 1).coordinates as number[][]).concat([
      [-180, -90],
    ]);
    const polygon = [ring, ring];
    acceptanceOf(geometrySchema, { type: 'MultiPolygon', coordinates: [polygon, polygon] });
    expect(
      rejectionOf(geometrySchema, { type: 'MultiPolygon', coordinates: [polygon, polygon, [unitSquare]] })
        .message,
    ).toBe(tooMany);
  });

  it('stops at the bound: a bad position past it is not what is reported', () => {
    const geometry = longLineString(MAX_GEOMETRY_POSITIONS + 1);
    (geometry.coordinates as number[][]).push([0, 100]);
    expect(rejectionOf(geometrySchema, geometry).message).toBe(tooMany);
  });

  it('reports a bad position before the bound as itself', () => {
    const geometry = longLineString(MAX_GEOMETRY_POSITIONS + 10);
    (geometry.coordinates as number[][])[5] = [0, 100];
    expect(rejectionOf(geometrySchema, geometry).message).toBe(`coordinates[5][1]: ${latitude}`);
  });

  it('refuses a million positions without reading those past the bound', () => {
    // Records the furthest position anything reads: a full zod parse would read all million.
    let furthest = -1;
    const coordinates = new Proxy(
      Array.from({ length: 1_000_000 }, () => [0, 0]),
      {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) furthest = Math.max(furthest, Number(key));
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
    expect(rejectionOf(geometrySchema, { type: 'MultiPoint', coordinates }).message).toBe(tooMany);
    // Index MAX_GEOMETRY_POSITIONS is the first position past the bound: the walk stops there.
    expect(furthest).toBe(MAX_GEOMETRY_POSITIONS);
  });
});

describe('geometrySchema in OpenAPI', () => {
  it('describes positions, ranges and the kinds of geometry as input JSON Schema', () => {
    const json = JSON.stringify(z.toJSONSchema(geometrySchema, { target: 'draft-2020-12', io: 'input' }));
    for (const type of ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon']) {
      expect(json).toContain(`"const":"${type}"`);
    }
    expect(json).toContain('"const":"GeometryCollection"');
    expect(json).toContain('{"type":"number","minimum":-180,"maximum":180}');
    expect(json).toContain('{"type":"number","minimum":-90,"maximum":90}');
    expect(json).toContain('"additionalProperties":false');
  });
});
