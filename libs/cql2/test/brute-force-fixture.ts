import type { Cql2Record, Geometry, QueryableResolver } from '../src/index.js';

// A small table of records with odd data on purpose: JSON properties holding numbers, numeric strings,
// timestamps valid and invalid, booleans, nulls, objects, arrays, huge and tiny numbers, or nothing.

export interface Row {
  id: number;
  n: number | null;
  i: number | null;
  s: string | null;
  b: boolean | null;
  t: string | null;
  d: string | null;
  g: Geometry | null;
  tags: unknown;
  startT: string | null;
  endT: string | null;
  props: Record<string, unknown>;
}

export const queryables: QueryableResolver = (name) =>
  (
    ({
      n: { sql: 'r.n', type: 'number' },
      i: { sql: 'r.i', type: 'integer' },
      s: { sql: 'r.s', type: 'string' },
      b: { sql: 'r.b', type: 'boolean' },
      t: { sql: 'r.t', type: 'timestamp' },
      d: { sql: 'r.d', type: 'date' },
      g: { sql: 'r.g', type: 'geometry' },
      tags: { sql: 'r.tags', type: 'array' },
      datetime: {
        sql: 'r.t',
        type: 'timestamp',
        interval: { start: 'coalesce(r.start_t, r.t)', end: 'coalesce(r.end_t, r.t)' },
      },
      x: { sql: "r.props->'x'", type: 'json' },
      y: { sql: "r.props->'y'", type: 'json' },
    }) as const
  )[name as 'n'];

export function recordOf(row: Row): Cql2Record {
  const values: Record<string, unknown> = {
    n: row.n,
    i: row.i,
    s: row.s,
    b: row.b,
    t: row.t,
    d: row.d,
    g: row.g,
    tags: row.tags,
    datetime: row.t,
    x: row.props.x,
    y: row.props.y,
  };
  return {
    get: (name) => values[name],
    interval: () => [row.startT ?? row.t, row.endT ?? row.t],
  };
}

export const numbers = [0, 1, -3, 2.5, 10, 1e-5, 0.1, 3];
export const strings = [
  'alpha',
  'Alpha',
  'ÉTÉ',
  'été',
  'ete',
  'a%b',
  '',
  'Straße',
  'STRASSE',
  'ΟΔΟΣ',
  '3.14',
];
export const timestamps = [
  '2020-01-01T00:00:00Z',
  '2020-01-01T12:30:00.5Z',
  '2020-06-15T08:00:00Z',
  '2021-03-01T00:00:00Z',
  '1999-12-31T23:59:59.999999Z',
];
export const dates = ['2020-01-01', '2020-06-15', '2021-02-28', '1999-12-31'];
export const geometries: Geometry[] = [
  { type: 'Point', coordinates: [1, 1] },
  { type: 'Point', coordinates: [5, 5] },
  { type: 'Point', coordinates: [0, 0] },
  {
    type: 'LineString',
    coordinates: [
      [0, 0],
      [4, 4],
    ],
  },
  {
    type: 'LineString',
    coordinates: [
      [-2, 2],
      [2, 2],
    ],
  },
  {
    type: 'Polygon',
    coordinates: [
      [
        [0, 0],
        [2, 0],
        [2, 2],
        [0, 2],
        [0, 0],
      ],
    ],
  },
  {
    type: 'Polygon',
    coordinates: [
      [
        [1, 1],
        [3, 1],
        [3, 3],
        [1, 3],
        [1, 1],
      ],
    ],
  },
  {
    type: 'Polygon',
    coordinates: [
      [
        [-10, -10],
        [10, -10],
        [10, 10],
        [-10, 10],
        [-10, -10],
      ],
    ],
  },
  {
    type: 'MultiPoint',
    coordinates: [
      [1, 1],
      [6, 6],
    ],
  },
];
const jsonValues: unknown[] = [
  ...numbers,
  ...strings,
  ...timestamps,
  ...dates,
  '2020-02-30T00:00:00Z',
  '2020-01-01T00:00:00+02:00',
  'not a date',
  true,
  false,
  null,
  undefined,
  { a: 1 },
  ['a', 1],
  [1, 2, 3],
  1e305,
  -1e-310,
  123456789012345680000,
];
const tagValues: unknown[] = [['a', 'b'], ['b'], [], [1, 2], ['a', 1, true], [['a']], null, 'a', { a: 1 }];

/** Deterministic pseudo-random rows (a fixed-seed LCG), so failures reproduce. */
export function makeRows(count: number): Row[] {
  let seed = 12345;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = <T>(items: readonly T[], nullChance = 0.15): T | null =>
    next() < nullChance ? null : (items[Math.floor(next() * items.length)] as T);
  return Array.from({ length: count }, (_, id) => {
    const hasInterval = next() < 0.4;
    const start = pick(timestamps, 0.1);
    const end = hasInterval && start ? (timestamps.filter((t) => t >= start).at(-1) ?? start) : null;
    const props: Record<string, unknown> = {};
    for (const key of ['x', 'y']) {
      const value = pick(jsonValues, 0);
      if (value !== undefined) props[key] = value;
    }
    return {
      id,
      n: pick(numbers),
      i: pick([0, 1, 3, -3, 10]),
      s: pick(strings),
      b: pick([true, false]),
      t: pick(timestamps),
      d: pick(dates),
      g: pick(geometries),
      tags: pick(tagValues, 0),
      startT: hasInterval ? start : null,
      endT: hasInterval ? end : null,
      props,
    };
  });
}
