import { describe, expect, it } from 'vitest';
import { parseCql2Json, parseCql2Text, printCql2Json, printCql2Text } from '../src/index.js';

// Every construct of the CQL2 grammar, written in text and in JSON: both must give the same tree, and
// the tree must print back to an equivalent text and JSON. Cases follow the standard's examples.
const cases: [string, string, unknown][] = [
  [
    'comparison =',
    "landsat:scene_id = 'LC82030282019133LGN00'",
    { op: '=', args: [{ property: 'landsat:scene_id' }, 'LC82030282019133LGN00'] },
  ],
  ['comparison <>', 'eo:cloud_cover <> 10', { op: '<>', args: [{ property: 'eo:cloud_cover' }, 10] }],
  ['comparison <', 'eo:cloud_cover < 0.1', { op: '<', args: [{ property: 'eo:cloud_cover' }, 0.1] }],
  ['comparison <=', 'eo:cloud_cover <= -1.5e3', { op: '<=', args: [{ property: 'eo:cloud_cover' }, -1500] }],
  ['comparison >', 'value > 5', { op: '>', args: [{ property: 'value' }, 5] }],
  ['comparison >=', 'value >= .5', { op: '>=', args: [{ property: 'value' }, 0.5] }],
  ['property-property', 'a = b', { op: '=', args: [{ property: 'a' }, { property: 'b' }] }],
  ['quoted property', '"AND" = \'x\'', { op: '=', args: [{ property: 'AND' }, 'x'] }],
  ['escaped quotes', "name = 'O''Brien'", { op: '=', args: [{ property: 'name' }, "O'Brien"] }],
  ['boolean literal', 'TRUE', true],
  ['boolean comparison', 'flag = false', { op: '=', args: [{ property: 'flag' }, false] }],
  [
    'and / or precedence',
    'a = 1 OR b = 2 AND c = 3',
    {
      op: 'or',
      args: [
        { op: '=', args: [{ property: 'a' }, 1] },
        {
          op: 'and',
          args: [
            { op: '=', args: [{ property: 'b' }, 2] },
            { op: '=', args: [{ property: 'c' }, 3] },
          ],
        },
      ],
    },
  ],
  [
    'n-ary and',
    'a = 1 and b = 2 AND c = 3',
    {
      op: 'and',
      args: [
        { op: '=', args: [{ property: 'a' }, 1] },
        { op: '=', args: [{ property: 'b' }, 2] },
        { op: '=', args: [{ property: 'c' }, 3] },
      ],
    },
  ],
  ['not', 'NOT (a = 1)', { op: 'not', args: [{ op: '=', args: [{ property: 'a' }, 1] }] }],
  ['is null', 'geometry IS NULL', { op: 'isNull', args: [{ property: 'geometry' }] }],
  [
    'is not null',
    'geometry IS NOT NULL',
    { op: 'not', args: [{ op: 'isNull', args: [{ property: 'geometry' }] }] },
  ],
  [
    'timestamp',
    "updated > TIMESTAMP('2012-08-10T05:30:00Z')",
    { op: '>', args: [{ property: 'updated' }, { timestamp: '2012-08-10T05:30:00Z' }] },
  ],
  [
    'timestamp with fraction',
    "t = TIMESTAMP('2012-08-10T05:30:00.123456Z')",
    { op: '=', args: [{ property: 't' }, { timestamp: '2012-08-10T05:30:00.123456Z' }] },
  ],
  ['date', "day <= DATE('2012-08-10')", { op: '<=', args: [{ property: 'day' }, { date: '2012-08-10' }] }],
  ['like', "name LIKE 'Smith%'", { op: 'like', args: [{ property: 'name' }, 'Smith%'] }],
  [
    'not like',
    "name NOT LIKE 'S_ith\\%'",
    { op: 'not', args: [{ op: 'like', args: [{ property: 'name' }, 'S_ith\\%'] }] },
  ],
  ['between', 'depth BETWEEN 100.0 AND 150.0', { op: 'between', args: [{ property: 'depth' }, 100, 150] }],
  [
    'not between',
    'depth NOT BETWEEN 1 AND 2',
    { op: 'not', args: [{ op: 'between', args: [{ property: 'depth' }, 1, 2] }] },
  ],
  [
    'in',
    "cityName IN ('Toronto', 'Frankfurt', 'Tokyo')",
    { op: 'in', args: [{ property: 'cityName' }, ['Toronto', 'Frankfurt', 'Tokyo']] },
  ],
  [
    'not in',
    'category NOT IN (1, 2)',
    { op: 'not', args: [{ op: 'in', args: [{ property: 'category' }, [1, 2]] }] },
  ],
  [
    'casei',
    "CASEI(road_class) IN (CASEI('Οδος'), CASEI('Straße'))",
    {
      op: 'in',
      args: [
        { op: 'casei', args: [{ property: 'road_class' }] },
        [
          { op: 'casei', args: ['Οδος'] },
          { op: 'casei', args: ['Straße'] },
        ],
      ],
    },
  ],
  [
    'accenti',
    "ACCENTI(etat_vol) = ACCENTI('débárquér')",
    {
      op: '=',
      args: [
        { op: 'accenti', args: [{ property: 'etat_vol' }] },
        { op: 'accenti', args: ['débárquér'] },
      ],
    },
  ],
  [
    'like casei',
    "name LIKE CASEI('sm%')",
    { op: 'like', args: [{ property: 'name' }, { op: 'casei', args: ['sm%'] }] },
  ],
  [
    's_intersects point',
    'S_INTERSECTS(geometry, POINT(36.3 32.3))',
    { op: 's_intersects', args: [{ property: 'geometry' }, { type: 'Point', coordinates: [36.3, 32.3] }] },
  ],
  [
    's_equals 3d point',
    'S_EQUALS(geometry, POINT Z(1 2 3))',
    { op: 's_equals', args: [{ property: 'geometry' }, { type: 'Point', coordinates: [1, 2, 3] }] },
  ],
  [
    's_disjoint linestring',
    'S_DISJOINT(geometry, LINESTRING(-1 -2, 3 4))',
    {
      op: 's_disjoint',
      args: [
        { property: 'geometry' },
        {
          type: 'LineString',
          coordinates: [
            [-1, -2],
            [3, 4],
          ],
        },
      ],
    },
  ],
  [
    's_touches polygon',
    'S_TOUCHES(geometry, POLYGON((0 0, 1 0, 1 1, 0 0), (0.2 0.1, 0.8 0.1, 0.8 0.7, 0.2 0.1)))',
    {
      op: 's_touches',
      args: [
        { property: 'geometry' },
        {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
            [
              [0.2, 0.1],
              [0.8, 0.1],
              [0.8, 0.7],
              [0.2, 0.1],
            ],
          ],
        },
      ],
    },
  ],
  [
    's_within multipoint',
    'S_WITHIN(MULTIPOINT((1 2), (3 4)), geometry)',
    {
      op: 's_within',
      args: [
        {
          type: 'MultiPoint',
          coordinates: [
            [1, 2],
            [3, 4],
          ],
        },
        { property: 'geometry' },
      ],
    },
  ],
  [
    's_overlaps multilinestring',
    'S_OVERLAPS(geometry, MULTILINESTRING((0 0, 1 1), (2 2, 3 3)))',
    {
      op: 's_overlaps',
      args: [
        { property: 'geometry' },
        {
          type: 'MultiLineString',
          coordinates: [
            [
              [0, 0],
              [1, 1],
            ],
            [
              [2, 2],
              [3, 3],
            ],
          ],
        },
      ],
    },
  ],
  [
    's_crosses multipolygon',
    'S_CROSSES(geometry, MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5))))',
    {
      op: 's_crosses',
      args: [
        { property: 'geometry' },
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
                [5, 5],
                [6, 5],
                [6, 6],
                [5, 5],
              ],
            ],
          ],
        },
      ],
    },
  ],
  [
    's_contains collection',
    'S_CONTAINS(geometry, GEOMETRYCOLLECTION(POINT(1 2), LINESTRING(0 0, 1 1)))',
    {
      op: 's_contains',
      args: [
        { property: 'geometry' },
        {
          type: 'GeometryCollection',
          geometries: [
            { type: 'Point', coordinates: [1, 2] },
            {
              type: 'LineString',
              coordinates: [
                [0, 0],
                [1, 1],
              ],
            },
          ],
        },
      ],
    },
  ],
  [
    'bbox',
    'S_INTERSECTS(geometry, BBOX(-128.1, 37.2, -115.0, 43.8))',
    { op: 's_intersects', args: [{ property: 'geometry' }, { bbox: [-128.1, 37.2, -115, 43.8] }] },
  ],
  [
    'bbox 3d',
    'S_INTERSECTS(geometry, BBOX(-1, -2, 0, 1, 2, 10))',
    { op: 's_intersects', args: [{ property: 'geometry' }, { bbox: [-1, -2, 0, 1, 2, 10] }] },
  ],
  [
    'property-property spatial',
    'S_WITHIN(a, b)',
    { op: 's_within', args: [{ property: 'a' }, { property: 'b' }] },
  ],
  ...(
    [
      't_after',
      't_before',
      't_contains',
      't_disjoint',
      't_during',
      't_equals',
      't_finishedby',
      't_finishes',
      't_intersects',
      't_meets',
      't_metby',
      't_overlappedby',
      't_overlaps',
      't_startedby',
      't_starts',
    ] as const
  ).map((op): [string, string, unknown] => [
    op,
    `${op.toUpperCase()}(datetime, INTERVAL('2017-06-10T07:30:00Z', '..'))`,
    { op, args: [{ property: 'datetime' }, { interval: ['2017-06-10T07:30:00Z', '..'] }] },
  ]),
  [
    'interval of dates',
    "T_DURING(day, INTERVAL('..', '2017-06-11'))",
    { op: 't_during', args: [{ property: 'day' }, { interval: ['..', '2017-06-11'] }] },
  ],
  [
    'interval of properties',
    "T_INTERSECTS(INTERVAL(starts_at, ends_at), DATE('2020-01-01'))",
    {
      op: 't_intersects',
      args: [{ interval: [{ property: 'starts_at' }, { property: 'ends_at' }] }, { date: '2020-01-01' }],
    },
  ],
  [
    'temporal instant',
    "T_AFTER(datetime, TIMESTAMP('2020-01-01T00:00:00Z'))",
    { op: 't_after', args: [{ property: 'datetime' }, { timestamp: '2020-01-01T00:00:00Z' }] },
  ],
  [
    'a_equals',
    "A_EQUALS(layer:ids, ('layers-ca', 'layers-us'))",
    { op: 'a_equals', args: [{ property: 'layer:ids' }, ['layers-ca', 'layers-us']] },
  ],
  [
    'a_contains',
    "A_CONTAINS(layer:ids, ('layers-ca'))",
    { op: 'a_contains', args: [{ property: 'layer:ids' }, ['layers-ca']] },
  ],
  [
    'a_containedby nested',
    'A_CONTAINEDBY(tags, (1, (2, TRUE), ()))',
    { op: 'a_containedby', args: [{ property: 'tags' }, [1, [2, true], []]] },
  ],
  ['a_overlaps', 'A_OVERLAPS(a, b)', { op: 'a_overlaps', args: [{ property: 'a' }, { property: 'b' }] }],
  [
    'arithmetic precedence',
    'a + b * c ^ 2 ^ 3 >= 10',
    {
      op: '>=',
      args: [
        {
          op: '+',
          args: [
            { property: 'a' },
            {
              op: '*',
              args: [{ property: 'b' }, { op: '^', args: [{ property: 'c' }, { op: '^', args: [2, 3] }] }],
            },
          ],
        },
        10,
      ],
    },
  ],
  [
    'arithmetic left assoc',
    'a - b - c = 0',
    {
      op: '=',
      args: [
        { op: '-', args: [{ op: '-', args: [{ property: 'a' }, { property: 'b' }] }, { property: 'c' }] },
        0,
      ],
    },
  ],
  [
    'arithmetic parentheses',
    '(a - b) % 3 div 2 = a / 4',
    {
      op: '=',
      args: [
        {
          op: 'div',
          args: [{ op: '%', args: [{ op: '-', args: [{ property: 'a' }, { property: 'b' }] }, 3] }, 2],
        },
        { op: '/', args: [{ property: 'a' }, 4] },
      ],
    },
  ],
  ['unary minus', '-a < 3', { op: '<', args: [{ op: '*', args: [-1, { property: 'a' }] }, 3] }],
  [
    'function',
    "my_fn(a, 'x', 3) = 1",
    { op: '=', args: [{ op: 'my_fn', args: [{ property: 'a' }, 'x', 3] }, 1] },
  ],
  ['boolean function', 'isOpen()', { op: 'isOpen', args: [] }],
  [
    'keywords any case',
    "a Like 'x' aNd NoT b is null",
    {
      op: 'and',
      args: [
        { op: 'like', args: [{ property: 'a' }, 'x'] },
        { op: 'not', args: [{ op: 'isNull', args: [{ property: 'b' }] }] },
      ],
    },
  ],
];

describe('CQL2 text and JSON give the same tree', () => {
  it.each(cases)('%s', (_name, text, json) => {
    const fromText = parseCql2Text(text);
    const fromJson = parseCql2Json(json);
    expect(fromText).toEqual(fromJson);
    expect(parseCql2Text(printCql2Text(fromText))).toEqual(fromText);
    expect(parseCql2Json(printCql2Json(fromText))).toEqual(fromText);
  });

  it('accepts the 2022 draft form of functions in JSON', () => {
    expect(parseCql2Json({ function: { name: 'isOpen', args: [] } })).toEqual(parseCql2Text('isOpen()'));
  });

  it('accepts the draft form of BETWEEN in JSON, bounds as one array', () => {
    expect(parseCql2Json({ op: 'between', args: [{ property: 'eo:cloud_cover' }, [0, 50]] })).toEqual(
      parseCql2Text('eo:cloud_cover BETWEEN 0 AND 50'),
    );
    expect(() => parseCql2Json({ op: 'between', args: [{ property: 'a' }, [0]] })).toThrow(
      /"between" takes 3 arguments/,
    );
  });

  it('accepts bare positions in MULTIPOINT', () => {
    expect(parseCql2Text('S_WITHIN(MULTIPOINT(1 2, 3 4), g)')).toEqual(
      parseCql2Text('S_WITHIN(MULTIPOINT((1 2), (3 4)), g)'),
    );
  });

  it('prints negations readably', () => {
    expect(printCql2Text(parseCql2Text("NOT (a IS NULL) AND NOT b LIKE 'x'"))).toBe(
      "a IS NOT NULL AND b NOT LIKE 'x'",
    );
  });
});
