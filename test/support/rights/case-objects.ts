import type { DeleteCase, MoveCase, ObjectCase } from './rights-table.js';
import { relations, type Operation } from './vocabulary.js';

/**
 * Which objects each case acts on (see fixture.ts): a case the table allows that changes rights or
 * takes its object away gets objects of its own; the refusals of one operation on one creator's objects
 * (one scenario) share theirs, since a refusal changes nothing.
 */

/** The operations that change the object's rights or take it away: they act on objects of their own. */
export const freshOperations: readonly Operation[] = [
  'share',
  'visibility',
  'move',
  'move to root',
  'delete',
];

/** Which fresh object a case acts on (see `RightsFixture`). */
export function objectKey(cell: ObjectCase): string {
  const objectsOf = relations[cell.relation]?.objectsOf ?? 'an unknown row';
  const who = cell.expected === '✓' ? cell.relation : `refused, on objects of ${objectsOf}`;
  return `${cell.situation} | ${who} | ${cell.operation}`;
}

export function moveKey(cell: MoveCase): string {
  return `move ${cell.scenario} | ${cell.expected === '✓' ? cell.caller : 'refused'}`;
}

export function deleteKey(cell: DeleteCase): string {
  const mode = cell.recursive ? 'recursive' : 'plain';
  return `delete ${cell.scenario} | ${cell.expected === '✓' ? `${mode} by ${cell.caller}` : 'refused'}`;
}

/** One of each key: the first case that names it says what to make. */
export function byKey<T>(cells: readonly T[], keyOf: (cell: T) => string): [string, T][] {
  return [...new Map(cells.map((cell) => [keyOf(cell), cell])).entries()];
}
