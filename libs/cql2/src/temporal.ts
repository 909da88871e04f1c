import type { TemporalOp } from './ast.js';

/**
 * The temporal relations of CQL2 over closed intervals [s1, e1] and [s2, e2] (an instant t is [t, t];
 * an open end is -infinity or +infinity), as conjunctions (`all`) or disjunctions (`any`) of
 * comparisons. The SQL translation and the evaluator both read this table.
 */
export type Endpoint = 's1' | 'e1' | 's2' | 'e2';
export type EndpointComparison = [Endpoint, '<' | '=' | '>' | '<=' | '>=', Endpoint];
export interface TemporalRelation {
  combine: 'all' | 'any';
  comparisons: EndpointComparison[];
}

const all = (...comparisons: EndpointComparison[]): TemporalRelation => ({ combine: 'all', comparisons });

export const temporalRelations: Record<TemporalOp, TemporalRelation> = {
  t_after: all(['s1', '>', 'e2']),
  t_before: all(['e1', '<', 's2']),
  t_contains: all(['s1', '<', 's2'], ['e1', '>', 'e2']),
  t_disjoint: {
    combine: 'any',
    comparisons: [
      ['e1', '<', 's2'],
      ['s1', '>', 'e2'],
    ],
  },
  t_during: all(['s1', '>', 's2'], ['e1', '<', 'e2']),
  t_equals: all(['s1', '=', 's2'], ['e1', '=', 'e2']),
  t_finishedby: all(['s1', '<', 's2'], ['e1', '=', 'e2']),
  t_finishes: all(['s1', '>', 's2'], ['e1', '=', 'e2']),
  t_intersects: all(['s1', '<=', 'e2'], ['e1', '>=', 's2']),
  t_meets: all(['e1', '=', 's2']),
  t_metby: all(['s1', '=', 'e2']),
  t_overlappedby: all(['s1', '>', 's2'], ['s1', '<', 'e2'], ['e1', '>', 'e2']),
  t_overlaps: all(['s1', '<', 's2'], ['e1', '>', 's2'], ['e1', '<', 'e2']),
  t_startedby: all(['s1', '=', 's2'], ['e1', '>', 'e2']),
  t_starts: all(['s1', '=', 's2'], ['e1', '<', 'e2']),
};
