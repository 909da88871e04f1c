import { describe, expect, it } from 'vitest';
import {
  Cql2Error,
  MAX_CQL2_COORDINATES,
  MAX_CQL2_DEPTH,
  MAX_CQL2_NODES,
  MAX_CQL2_TEXT_LENGTH,
  cql2ToSql,
  parseCql2Json,
  parseCql2Text,
} from '../src/index.js';
import type { QueryableResolver } from '../src/index.js';

function textError(text: string): Cql2Error {
  try {
    parseCql2Text(text);
  } catch (error) {
    if (error instanceof Cql2Error) return error;
    throw error;
  }
  throw new Error(`no error for ${text}`);
}

function jsonError(value: unknown): string {
  try {
    parseCql2Json(value);
  } catch (error) {
    if (error instanceof Cql2Error) return error.message;
    throw error;
  }
  throw new Error(`no error for ${JSON.stringify(value)}`);
}

describe('CQL2 text syntax errors name the position and the expected tokens', () => {
  it.each([
    ['a = ', 1, 5, ['a property', 'a literal', 'a function', '"("']],
    ['a = 1 AND (b > 2', 1, 17, ['")"']],
    ['S_INTERSECTS(geom POINT(1 2))', 1, 19, ['","']],
    ['a = 1\n  AND b LIKE 5', 2, 14, ['a string pattern', 'CASEI', 'ACCENTI']],
    ['a NOT = 1', 1, 7, ['LIKE', 'BETWEEN', 'IN']],
    ['a BETWEEN 1 OR 2', 1, 13, ['AND']],
    ['a IS 5', 1, 6, ['NULL']],
    ['a = 1 b = 2', 1, 7, ['AND', 'OR', 'the end of the filter']],
  ])('%j', (text, line, column, expected) => {
    const error = textError(text);
    expect(error.position).toMatchObject({ line, column });
    expect(error.expected).toEqual(expected);
    expect(error.message).toContain(`line ${line}, column ${column}`);
  });

  it.each([
    ["a = 'unterminated", 'unterminated string literal at line 1, column 5'],
    ['a = "x', 'unterminated quoted property name'],
    ['a = 1 ; b', 'unexpected character ";" at line 1, column 7'],
    ["t = TIMESTAMP('2020-02-30T00:00:00Z')", "invalid timestamp '2020-02-30T00:00:00Z'"],
    ["t = TIMESTAMP('2020-01-01')", 'invalid timestamp'],
    ["d = DATE('2021-02-29')", "invalid date '2021-02-29'"],
    ["T_AFTER(t, INTERVAL('yesterday', '..'))", "invalid interval bound 'yesterday'"],
    ["name LIKE 'a' AND a + 'x' = 1", 'the operands of + must be numeric'],
    ['S_INTERSECTS(g, POINT(200 0))', 'EPSG:4326'],
    ['S_INTERSECTS(g, POLYGON((0 0, 1 0, 1 1, 0 1)))', 'closed'],
    ['S_INTERSECTS(g, BBOX(10, 0, -10, 5))', 'antimeridian'],
    ['S_INTERSECTS(g, BBOX(1, 2, 3))', '4 or 6'],
    ['a', 'a filter must be a predicate'],
    ['a = 1e400', 'out of the supported range'],
    ['AND = 1', 'unexpected keyword AND'],
    ["A_CONTAINS(a, (b, 'x'))", 'array elements must be literals'],
  ])('%j is refused: %s', (text, message) => {
    expect(textError(text).message).toContain(message);
  });
});

describe('CQL2 JSON errors name the path', () => {
  it.each([
    [{ op: 'and', args: [{ op: '=', args: [{ property: 'a' }, 1] }] }, 'AND needs at least two operands'],
    [{ op: '=', args: [{ property: 'a' }] }, '"=" takes 2 arguments'],
    [
      { op: 'and', args: [true, { op: '=', args: [{ property: 'a' }, null] }] },
      'at args[1].args[1]: expected a string',
    ],
    [{ op: '=', args: [{ property: 5 }, 1] }, '"property" must be a string'],
    [{ op: 't_after', args: [{ property: 't' }, { interval: ['2020-01-01'] }] }, 'two bounds'],
    [
      { op: 's_intersects', args: [{ property: 'g' }, { type: 'Point', coordinates: [1] }] },
      'two or three numbers',
    ],
    [{ op: 's_intersects', args: [{ property: 'g' }, { type: 'Circle' }] }, 'unrecognised object'],
    [{ op: 'in', args: [{ property: 'a' }, 1] }, 'must be an array'],
    [{ op: '=', args: [{ property: 'a' }, { foo: 1 }] }, 'unrecognised object'],
    [{ op: '=', args: [{ property: 'a' }, { timestamp: 'now' }] }, "invalid timestamp 'now'"],
    [{ op: 'like', args: [{ property: 'a' }, { property: 'b' }] }, 'pattern of LIKE'],
    [5, 'a filter must be a predicate'],
  ])('%j', (value, message) => {
    expect(jsonError(value)).toContain(message);
  });
});

describe('limits are errors, not crashes', () => {
  it('refuses a text longer than the limit', () => {
    expect(textError(`a = '${'x'.repeat(MAX_CQL2_TEXT_LENGTH)}'`).message).toContain('longer than');
  });

  it('refuses nesting deeper than the limit in text', () => {
    const deep = `${'('.repeat(MAX_CQL2_DEPTH + 5)}a = 1${')'.repeat(MAX_CQL2_DEPTH + 5)}`;
    expect(textError(deep).message).toContain('nests deeper');
    expect(textError(`${'NOT '.repeat(MAX_CQL2_DEPTH + 5)}a = 1`).message).toContain('nests deeper');
    expect(textError(`a = ${'-'.repeat(MAX_CQL2_DEPTH + 5)}b`).message).toContain('nests deeper');
  });

  it('refuses nesting deeper than the limit in JSON, even a hundred thousand levels', () => {
    let value: unknown = { op: '=', args: [{ property: 'a' }, 1] };
    for (let i = 0; i < 100_000; i += 1) value = { op: 'not', args: [value] };
    expect(jsonError(value)).toContain('nests deeper');
  });

  it('refuses geometry collections nested deeper than the limit in JSON', () => {
    let geometry: unknown = { type: 'Point', coordinates: [0, 0] };
    for (let i = 0; i < 100_000; i += 1) geometry = { type: 'GeometryCollection', geometries: [geometry] };
    expect(jsonError({ op: 's_intersects', args: [{ property: 'g' }, geometry] })).toContain('nest deeper');
  });

  it('keeps only the geometry members of a GeoJSON literal', () => {
    const point = { type: 'Point', coordinates: [1, 2], bbox: [1, 2, 1, 2], crs: 'x' };
    expect(parseCql2Json({ op: 's_intersects', args: [{ property: 'g' }, point] })).toEqual(
      parseCql2Text('S_INTERSECTS(g, POINT(1 2))'),
    );
  });

  it('refuses more nodes than the limit', () => {
    const text = Array.from({ length: MAX_CQL2_NODES }, (_, i) => `a = ${i}`).join(' OR ');
    expect(textError(text).message).toContain(`more than ${MAX_CQL2_NODES} nodes`);
  });

  it('refuses more coordinates than the limit', () => {
    const points = Array.from({ length: MAX_CQL2_COORDINATES + 1 }, (_, i) => `(${(i % 360) - 180} 0)`).join(
      ', ',
    );
    expect(textError(`S_INTERSECTS(g, MULTIPOINT(${points}))`).message).toContain('positions');
  });

  it('accepts a filter just inside the limits', () => {
    const text = Array.from({ length: 100 }, (_, i) => `a = ${i}`).join(' OR ');
    expect(() => parseCql2Text(text)).not.toThrow();
  });
});

describe('translation errors', () => {
  const queryables: QueryableResolver = (name) =>
    ({
      n: { sql: 'o.n', type: 'number' as const },
      s: { sql: 'o.s', type: 'string' as const },
      g: { sql: 'o.g', type: 'geometry' as const },
      j: { sql: "o.p->'j'", type: 'json' as const },
    })[name];
  const translate = (text: string): string => cql2ToSql(parseCql2Text(text), queryables, []);

  it.each([
    ['x = 1', "unknown property 'x'"],
    ["n = 'text'", "cannot compare number property 'n' with a string"],
    ['s > 3', "cannot compare string property 's' with a number"],
    ['S_INTERSECTS(n, POINT(1 2))', "spatial functions need a geometry, not number property 'n'"],
    ["T_AFTER(s, DATE('2020-01-01'))", 'temporal functions need an instant or interval'],
    ['A_CONTAINS(n, (1))', 'array functions need an array'],
    ['fn(n) = 1', "unsupported function 'fn'"],
    ["n LIKE 'x'", 'LIKE needs a string'],
    ["s LIKE 'x\\'", 'lone escape'],
    ['g = 1', 'use the S_, A_ or T_ functions'],
    ['S_INTERSECTS(g, POLYGON((0 0, 1 1, 1 0, 0 1, 0 0)))', 'invalid geometry'],
    ["A_CONTAINS(j, (TIMESTAMP('2020-01-01T00:00:00Z')))", 'array literals in filters hold'],
  ])('%j: %s', (text, message) => {
    expect(() => translate(text)).toThrow(message);
  });

  it('never writes a value into the SQL text', () => {
    const params: unknown[] = [];
    const sql = cql2ToSql(
      parseCql2Text("s = 'x''); DROP TABLE o; --' AND n > 42 AND j = 'secret'"),
      queryables,
      params,
    );
    expect(sql).not.toContain('DROP');
    expect(sql).not.toContain('42');
    expect(sql).not.toContain('secret');
    expect(params).toEqual(["x'); DROP TABLE o; --", 42, 'secret']);
  });
});
