import fc from 'fast-check';
import { arithmeticOps, arrayOps, comparisonOps, spatialOps, temporalOps } from '../src/index.js';
import type { Cql2Node } from '../src/index.js';
import { dates, geometries, numbers, strings, timestamps } from './brute-force-fixture.js';

// Random filters that type-check against the fixture's queryables, built to hit its values often
// (literals drawn from the same small sets as the rows).

const prop = (...names: string[]): fc.Arbitrary<Cql2Node> =>
  fc.constantFrom(...names).map((name) => ({ kind: 'property', name }));
const numberLiteral = fc
  .constantFrom(...numbers, 2, -1, 0.5)
  .map((value): Cql2Node => ({ kind: 'number', value }));
const stringLiteral = fc
  .constantFrom(...strings, 'ALPHA', 'Été')
  .map((value): Cql2Node => ({ kind: 'string', value }));
const timestampLiteral = fc
  .constantFrom(...timestamps)
  .map((value): Cql2Node => ({ kind: 'timestamp', value }));
const dateLiteral = fc.constantFrom(...dates).map((value): Cql2Node => ({ kind: 'date', value }));

const numeric: fc.Arbitrary<Cql2Node> = fc.letrec<{ n: Cql2Node }>((tie) => ({
  n: fc.oneof(
    { depthSize: 'small', maxDepth: 2 },
    numberLiteral,
    prop('n', 'i', 'x', 'y'),
    fc
      .tuple(fc.constantFrom(...arithmeticOps), tie('n'), tie('n'))
      .map(([op, left, right]): Cql2Node => ({ kind: 'arithmetic', op, left, right })),
  ),
})).n;
const character: fc.Arbitrary<Cql2Node> = fc.oneof(
  stringLiteral,
  prop('s', 'x', 'y'),
  prop('s', 'x').map((arg): Cql2Node => ({ kind: 'casei', arg })),
  prop('s', 'x').map((arg): Cql2Node => ({ kind: 'accenti', arg })),
  stringLiteral.map((arg): Cql2Node => ({ kind: 'casei', arg: { kind: 'accenti', arg } })),
);
const characterExpression = fc.oneof(
  prop('s', 'x'),
  prop('s', 'x').map((arg): Cql2Node => ({ kind: 'casei', arg })),
  prop('s', 'x').map((arg): Cql2Node => ({ kind: 'accenti', arg: { kind: 'casei', arg } })),
);
const pattern = fc
  .constantFrom('a%', '%a', 'A%', '_lpha', '%', '', 'a\\%b', '%é%', 'str%', 'ΟΔ%', '3._4')
  .chain((value) =>
    fc.constantFrom<Cql2Node>(
      { kind: 'string', value },
      { kind: 'casei', arg: { kind: 'string', value } },
      { kind: 'accenti', arg: { kind: 'casei', arg: { kind: 'string', value } } },
    ),
  );

const comparison = fc.oneof(
  fc.tuple(numeric, numeric),
  fc.tuple(character, character),
  fc.tuple(
    prop('b', 'x'),
    fc.oneof(
      prop('b', 'y'),
      fc.boolean().map((value): Cql2Node => ({ kind: 'boolean', value })),
    ),
  ),
  fc.tuple(prop('t', 'x', 'datetime'), fc.oneof(timestampLiteral, dateLiteral, prop('t'))),
  fc.tuple(prop('d', 'y'), fc.oneof(dateLiteral, prop('d'))),
  fc.tuple(prop('x'), prop('y')),
);
const spatialOperand = fc.oneof(
  prop('g'),
  fc.constantFrom(...geometries).map((geometry): Cql2Node => ({ kind: 'geometry', geometry })),
  fc
    .constantFrom([0, 0, 2, 2], [-1, -1, 1.5, 4], [4, 4, 6, 6])
    .map((values): Cql2Node => ({ kind: 'bbox', values: [...values] })),
);
const bound = fc.oneof(
  timestampLiteral,
  dateLiteral,
  fc.constant<Cql2Node>({ kind: 'unbounded' }),
  prop('t', 'x'),
);
const temporalOperand = fc.oneof(
  prop('datetime', 't', 'd', 'x'),
  timestampLiteral,
  dateLiteral,
  fc.tuple(bound, bound).map(([start, end]) => ({ kind: 'interval', start, end }) as Cql2Node),
);
const arrayLiteral = fc
  .array(
    fc.constantFrom<Cql2Node>(
      { kind: 'string', value: 'a' },
      { kind: 'string', value: 'b' },
      { kind: 'number', value: 1 },
      { kind: 'boolean', value: true },
    ),
    { maxLength: 3 },
  )
  .map((items): Cql2Node => ({ kind: 'array', items }));

export const typedFilter: fc.Arbitrary<Cql2Node> = fc.letrec<{ p: Cql2Node }>((tie) => ({
  p: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    fc
      .tuple(fc.constantFrom(...comparisonOps), comparison)
      .map(([op, [left, right]]): Cql2Node => ({ kind: 'comparison', op, left, right })),
    fc
      .tuple(characterExpression, pattern)
      .map(([value, p]): Cql2Node => ({ kind: 'like', value, pattern: p })),
    fc
      .tuple(numeric, numeric, numeric)
      .map(([value, low, high]): Cql2Node => ({ kind: 'between', value, low, high })),
    fc
      .tuple(numeric, fc.array(numeric, { minLength: 1, maxLength: 3 }))
      .map(([value, list]): Cql2Node => ({ kind: 'in', value, list })),
    fc
      .tuple(character, fc.array(stringLiteral, { minLength: 1, maxLength: 3 }))
      .map(([value, list]): Cql2Node => ({ kind: 'in', value, list })),
    fc
      .oneof(prop('n', 's', 't', 'd', 'g', 'tags', 'x', 'y'), numeric, character)
      .map((arg): Cql2Node => ({ kind: 'isNull', arg })),
    fc
      .tuple(fc.constantFrom(...spatialOps), spatialOperand, spatialOperand)
      .map(([op, left, right]): Cql2Node => ({ kind: 'spatial', op, left, right })),
    fc
      .tuple(fc.constantFrom(...temporalOps), temporalOperand, temporalOperand)
      .map(([op, left, right]): Cql2Node => ({ kind: 'temporal', op, left, right })),
    fc
      .tuple(
        fc.constantFrom(...arrayOps),
        fc.oneof(prop('tags', 'x'), arrayLiteral),
        fc.oneof(prop('tags', 'y'), arrayLiteral),
      )
      .map(([op, left, right]): Cql2Node => ({ kind: 'arrayPredicate', op, left, right })),
    fc.boolean().map((value): Cql2Node => ({ kind: 'boolean', value })),
    fc.array(tie('p'), { minLength: 2, maxLength: 3 }).map((args): Cql2Node => ({ kind: 'and', args })),
    fc.array(tie('p'), { minLength: 2, maxLength: 3 }).map((args): Cql2Node => ({ kind: 'or', args })),
    tie('p').map((arg): Cql2Node => ({ kind: 'not', arg })),
  ),
})).p;
