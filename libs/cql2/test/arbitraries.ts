import fc from 'fast-check';
import { arithmeticOps, arrayOps, comparisonOps, spatialOps, temporalOps } from '../src/index.js';
import type { Cql2Node, Geometry, Position } from '../src/index.js';

// Random well-formed trees for round-trip properties: every node kind, operands of the classes the
// grammar allows, literals with awkward content (quotes, keywords as names, unicode, exponents).

const propertyName = fc.constantFrom(
  'a',
  'b',
  'eo:cloud_cover',
  'properties.x',
  'AND',
  'with space',
  'q"uote',
  'Été',
  'date',
);
const property = propertyName.map((name): Cql2Node => ({ kind: 'property', name }));
const finiteNumber = fc
  .oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.double({ min: -1e12, max: 1e12, noNaN: true }))
  .filter((n) => n === 0 || Math.abs(n) >= 1e-300)
  .map((n) => (n === 0 ? 0 : n));
const number = finiteNumber.map((value): Cql2Node => ({ kind: 'number', value }));
const string = fc
  .string({ maxLength: 12, unit: 'grapheme' })
  .map((value): Cql2Node => ({ kind: 'string', value }));
const boolean = fc.boolean().map((value): Cql2Node => ({ kind: 'boolean', value }));
const instant = fc.date({
  min: new Date('0100-01-01T00:00:00Z'),
  max: new Date('9999-12-31T23:59:59Z'),
  noInvalidDate: true,
});
const timestamp = instant.map((d): Cql2Node => ({ kind: 'timestamp', value: d.toISOString() }));
const date = instant.map((d): Cql2Node => ({ kind: 'date', value: d.toISOString().slice(0, 10) }));
const lon = fc.double({ min: -180, max: 180, noNaN: true }).map((n) => (n === 0 ? 0 : n));
const lat = fc.double({ min: -90, max: 90, noNaN: true }).map((n) => (n === 0 ? 0 : n));
const position: fc.Arbitrary<Position> = fc.tuple(lon, lat);
const ring = fc.array(position, { minLength: 3, maxLength: 5 }).map((p) => [...p, p[0] as Position]);
const simpleGeometry: fc.Arbitrary<Geometry> = fc.oneof(
  position.map((coordinates): Geometry => ({ type: 'Point', coordinates })),
  fc
    .array(position, { minLength: 2, maxLength: 4 })
    .map((coordinates): Geometry => ({ type: 'LineString', coordinates })),
  fc
    .array(ring, { minLength: 1, maxLength: 2 })
    .map((coordinates): Geometry => ({ type: 'Polygon', coordinates })),
  fc
    .array(position, { minLength: 1, maxLength: 3 })
    .map((coordinates): Geometry => ({ type: 'MultiPoint', coordinates })),
  fc
    .array(fc.array(position, { minLength: 2, maxLength: 3 }), { minLength: 1, maxLength: 2 })
    .map((coordinates): Geometry => ({ type: 'MultiLineString', coordinates })),
  fc
    .array(fc.array(ring, { minLength: 1, maxLength: 1 }), { minLength: 1, maxLength: 2 })
    .map((coordinates): Geometry => ({ type: 'MultiPolygon', coordinates })),
);
const geometry = fc
  .oneof(
    simpleGeometry,
    fc
      .array(simpleGeometry, { minLength: 1, maxLength: 2 })
      .map((geometries): Geometry => ({ type: 'GeometryCollection', geometries })),
  )
  .map((g): Cql2Node => ({ kind: 'geometry', geometry: g }));
const bbox = fc.tuple(lon, lon, lat, lat).map(([w, e, s, n]): Cql2Node => ({
  kind: 'bbox',
  values: [Math.min(w, e), Math.min(s, n), Math.max(w, e), Math.max(s, n)],
}));
const functionName = fc.constantFrom('fn', 'Foo_bar', 'POINT');

const arrayLiteral: fc.Arbitrary<Cql2Node> = fc.letrec<{ array: Cql2Node; item: Cql2Node }>((tie) => ({
  array: fc.array(tie('item'), { maxLength: 3 }).map((items): Cql2Node => ({ kind: 'array', items })),
  item: fc.oneof({ depthSize: 'small' }, string, number, boolean, timestamp, date, bbox, tie('array')),
})).array;

export const cql2Tree: fc.Arbitrary<Cql2Node> = fc.letrec<{
  predicate: Cql2Node;
  numeric: Cql2Node;
  character: Cql2Node;
  scalar: Cql2Node;
  call: Cql2Node;
}>((tie) => {
  const binary = <T extends string>(
    ops: readonly T[],
    left: fc.Arbitrary<Cql2Node>,
    right: fc.Arbitrary<Cql2Node>,
  ) => fc.tuple(fc.constantFrom(...ops), left, right);
  const bound = fc.oneof(timestamp, date, fc.constant<Cql2Node>({ kind: 'unbounded' }), property);
  const interval = fc
    .tuple(bound, bound)
    .map(([start, end]) => ({ kind: 'interval', start, end }) as Cql2Node);
  const temporalOperand = fc.oneof(timestamp, date, interval, property);
  const pattern = fc.letrec<{ p: Cql2Node }>((inner) => ({
    p: fc.oneof(
      { depthSize: 'small' },
      string,
      inner('p').map((arg): Cql2Node => ({ kind: 'casei', arg })),
      inner('p').map((arg): Cql2Node => ({ kind: 'accenti', arg })),
    ),
  })).p;
  return {
    predicate: fc.oneof(
      { depthSize: 'small', maxDepth: 4 },
      binary(comparisonOps, tie('scalar'), tie('scalar')).map(([op, left, right]): Cql2Node => ({
        kind: 'comparison',
        op,
        left,
        right,
      })),
      fc
        .tuple(tie('character'), pattern)
        .map(([value, p]): Cql2Node => ({ kind: 'like', value, pattern: p })),
      fc
        .tuple(tie('numeric'), tie('numeric'), tie('numeric'))
        .map(([value, low, high]): Cql2Node => ({ kind: 'between', value, low, high })),
      fc
        .tuple(tie('scalar'), fc.array(tie('scalar'), { minLength: 1, maxLength: 3 }))
        .map(([value, list]): Cql2Node => ({ kind: 'in', value, list })),
      fc.oneof(tie('scalar'), geometry).map((arg): Cql2Node => ({ kind: 'isNull', arg })),
      binary(spatialOps, fc.oneof(property, geometry, bbox), fc.oneof(property, geometry, bbox)).map(
        ([op, left, right]): Cql2Node => ({ kind: 'spatial', op, left, right }),
      ),
      binary(temporalOps, temporalOperand, temporalOperand).map(([op, left, right]): Cql2Node => ({
        kind: 'temporal',
        op,
        left,
        right,
      })),
      binary(arrayOps, fc.oneof(property, arrayLiteral), fc.oneof(property, arrayLiteral)).map(
        ([op, left, right]): Cql2Node => ({ kind: 'arrayPredicate', op, left, right }),
      ),
      boolean,
      tie('call'),
      fc
        .array(tie('predicate'), { minLength: 2, maxLength: 3 })
        .map((args): Cql2Node => ({ kind: 'and', args })),
      fc
        .array(tie('predicate'), { minLength: 2, maxLength: 3 })
        .map((args): Cql2Node => ({ kind: 'or', args })),
      tie('predicate').map((arg): Cql2Node => ({ kind: 'not', arg })),
    ),
    numeric: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      number,
      property,
      binary(arithmeticOps, tie('numeric'), tie('numeric')).map(([op, left, right]): Cql2Node => ({
        kind: 'arithmetic',
        op,
        left,
        right,
      })),
      tie('call'),
    ),
    character: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      string,
      property,
      tie('character').map((arg): Cql2Node => ({ kind: 'casei', arg })),
      tie('character').map((arg): Cql2Node => ({ kind: 'accenti', arg })),
    ),
    scalar: fc.oneof({ depthSize: 'small' }, tie('numeric'), tie('character'), boolean, timestamp, date),
    call: fc
      .tuple(functionName, fc.array(fc.oneof(tie('scalar'), geometry), { maxLength: 2 }))
      .map(([name, args]): Cql2Node => ({ kind: 'function', name, args })),
  };
}).predicate;
