import { describe, expect, it } from 'vitest';
import type { GeoJsonGeometry } from './geometry.js';
import { bboxOfGeometry } from './geometry-bbox.js';

describe('bboxOfGeometry', () => {
  it.each<[string, GeoJsonGeometry, readonly number[]]>([
    ['a point is a box of no size', { type: 'Point', coordinates: [7.5, 46.9] }, [7.5, 46.9, 7.5, 46.9]],
    [
      'a multipoint spans its points',
      {
        type: 'MultiPoint',
        coordinates: [
          [10, 5],
          [-3, 20],
          [4, -7],
        ],
      },
      [-3, -7, 10, 20],
    ],
    [
      'a line string spans its positions, not only its ends',
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [50, 60],
          [1, 1],
        ],
      },
      [0, 0, 50, 60],
    ],
    [
      'a multiline string spans every line',
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
          [
            [-20, 30],
            [-10, 40],
          ],
        ],
      },
      [-20, 0, 1, 40],
    ],
    [
      'a polygon spans its exterior ring',
      {
        type: 'Polygon',
        coordinates: [
          [
            [5.9, 45.8],
            [10.5, 45.8],
            [10.5, 47.8],
            [5.9, 47.8],
            [5.9, 45.8],
          ],
        ],
      },
      [5.9, 45.8, 10.5, 47.8],
    ],
    [
      'a multipolygon spans every polygon',
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
          ],
          [
            [
              [100, -50],
              [101, -50],
              [101, -49],
              [100, -50],
            ],
          ],
        ],
      },
      [0, -50, 101, 1],
    ],
    [
      'a geometry collection spans every member',
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [-170, 80] },
          {
            type: 'LineString',
            coordinates: [
              [20, -10],
              [30, 0],
            ],
          },
        ],
      },
      [-170, -10, 30, 80],
    ],
    [
      'the altitude is ignored, however large or small',
      {
        type: 'LineString',
        coordinates: [
          [1, 2, -1000],
          [3, 4, 9000],
        ],
      },
      [1, 2, 3, 4],
    ],
    [
      'the world edges are kept exactly',
      {
        type: 'MultiPoint',
        coordinates: [
          [-180, -90],
          [180, 90],
        ],
      },
      [-180, -90, 180, 90],
    ],
  ])('%s', (_name, geometry, bbox) => {
    expect(bboxOfGeometry(geometry)).toEqual(bbox);
  });

  it('spans the whole width for a geometry split at the antimeridian (never west > east)', () => {
    const split: GeoJsonGeometry = {
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
    };
    expect(bboxOfGeometry(split)).toEqual([-180, 10, 180, 14]);
  });

  it('ignores a bbox the sender put on the geometry', () => {
    expect(bboxOfGeometry({ type: 'Point', coordinates: [1, 2], bbox: [-50, -50, 50, 50] })).toEqual([
      1, 2, 1, 2,
    ]);
  });

  it.each<[string, GeoJsonGeometry]>([
    ['an empty multipoint', { type: 'MultiPoint', coordinates: [] }],
    ['a polygon without rings', { type: 'Polygon', coordinates: [] }],
    ['a multipolygon of empty polygons', { type: 'MultiPolygon', coordinates: [[], []] }],
    ['an empty geometry collection', { type: 'GeometryCollection', geometries: [] }],
  ])('has no box for %s', (_name, geometry) => {
    expect(bboxOfGeometry(geometry)).toBeUndefined();
  });

  it('spans a line of 100,000 positions', () => {
    const coordinates = Array.from(
      { length: 100_000 },
      (_, index) => [(index % 360) - 180, (index % 180) - 90] as const,
    );
    expect(bboxOfGeometry({ type: 'LineString', coordinates })).toEqual([-180, -90, 179, 89]);
  });
});
