import { accessFunctions } from './access-handlers.js';
import { deleteFunction } from './delete-statement.js';
import { moveFunction } from './move-statement.js';
import { keyedSubtreeLimit, statementFunctionDdl } from './statement-function.js';

/**
 * The DDL of the statements kept as functions of the read schema (moves, deletes, access changes). They
 * name the tables, so they come after them. `keyedLimit`: see `statementFunctionDdl`.
 */
export function statementFunctionsDdl(keyedLimit = keyedSubtreeLimit): string {
  return [moveFunction, deleteFunction, ...accessFunctions]
    .map((statement) => statementFunctionDdl(statement, keyedLimit))
    .join('\n');
}
