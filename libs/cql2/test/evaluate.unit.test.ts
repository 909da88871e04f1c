import { describe, expect, it } from 'vitest';
import { evaluateCql2, parseCql2Text } from '../src/index.js';
import type { QueryableResolver } from '../src/index.js';

// Known answers, worked out by hand from the standard's definitions (the integration test then holds
// the SQL translation to the evaluator).
const queryables: QueryableResolver = (name) =>
  (
    ({
      t: { sql: 't', type: 'timestamp' },
      span: { sql: 's', type: 'timestamp', interval: { start: 's', end: 'e' } },
      x: { sql: 'x', type: 'json' },
      s: { sql: 's', type: 'string' },
      g: { sql: 'g', type: 'geometry' },
      tags: { sql: 'tags', type: 'array' },
    }) as const
  )[name as 't'];
const record = {
  get: (name: string): unknown =>
    ({
      t: '2020-06-01T00:00:00Z',
      x: '12',
      s: 'Ärger im Café',
      g: { type: 'Point', coordinates: [1, 1] },
      tags: ['a', 'b'],
    })[name],
  interval: (): [string, string] => ['2020-01-01T00:00:00Z', '2020-12-31T00:00:00Z'],
};
const evaluate = (text: string): boolean | null => evaluateCql2(parseCql2Text(text), queryables, record);

describe('evaluateCql2', () => {
  it.each([
    ["T_DURING(span, INTERVAL('2019-01-01', '2021-01-01'))", true],
    ['T_CONTAINS(span, t)', true],
    ["T_OVERLAPS(span, INTERVAL('2020-06-01T00:00:00Z', '..'))", true],
    ["T_OVERLAPPEDBY(span, INTERVAL('..', '2020-06-01T00:00:00Z'))", true],
    ["T_STARTS(span, INTERVAL('2020-01-01T00:00:00Z', '2021-01-01T00:00:00Z'))", true],
    ["T_STARTEDBY(span, INTERVAL('2020-01-01T00:00:00Z', '2020-02-01T00:00:00Z'))", true],
    ["T_FINISHES(span, INTERVAL('2019-01-01T00:00:00Z', '2020-12-31T00:00:00Z'))", true],
    ["T_FINISHEDBY(span, INTERVAL('2020-03-01T00:00:00Z', '2020-12-31T00:00:00Z'))", true],
    ["T_MEETS(span, INTERVAL('2020-12-31T00:00:00Z', '..'))", true],
    ["T_METBY(span, INTERVAL('..', '2020-01-01T00:00:00Z'))", true],
    ["T_EQUALS(span, INTERVAL('2020-01-01T00:00:00Z', '2020-12-31T00:00:00Z'))", true],
    ["T_AFTER(span, DATE('2019-12-31'))", true],
    ["T_AFTER(span, DATE('2020-01-01'))", false],
    ["T_BEFORE(t, DATE('2020-06-02'))", true],
    ["T_INTERSECTS(t, DATE('2020-06-01'))", true],
    ["T_DISJOINT(t, DATE('2020-06-01'))", false],
    ['x > 5', null],
    ["x = '12'", true],
    ['NOT (x > 5)', null],
    ['x > 5 OR TRUE', true],
    ['x > 5 AND FALSE', false],
    ["ACCENTI(CASEI(s)) LIKE 'arger im cafe'", true],
    ["s LIKE '_rger%'", true],
    ["s LIKE 'ärger%'", false],
    ['S_WITHIN(g, BBOX(0, 0, 2, 2))', true],
    ['S_TOUCHES(g, POLYGON((1 1, 2 1, 2 2, 1 2, 1 1)))', true],
    ["A_CONTAINS(tags, ('b'))", true],
    ["A_EQUALS(tags, ('b', 'a'))", false],
    ["A_CONTAINEDBY(tags, ('a', 'b', 'c'))", true],
    ["A_OVERLAPS(tags, ('c'))", false],
    ['x IS NULL', false],
    ['missing IS NULL', 'unknown property'],
  ])('%s → %s', (text, expected) => {
    if (typeof expected === 'string') expect(() => evaluate(text)).toThrow(expected);
    else expect(evaluate(text)).toBe(expected);
  });
});
