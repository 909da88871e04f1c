/**
 * A statement kept in the read schema as a PL/pgSQL function that plans it for its arguments at every
 * call (`force_custom_plan` for the statement alone).
 *
 * Why not a generic plan: a move, a delete and an access change are each one large statement (many
 * CTEs), and planning one takes much of its time (a leaf move 24–26 ms with custom plans, 8–9 ms
 * generic, on a loaded machine; the ten statements of before took 38 ms). But a generic plan cannot
 * see the id, and on a skewed tree it goes wrong: after 100,000 children were loaded under a few
 * catalogs (the bulk e2e test's stack), moves and shares took 70–100 ms each and the projector fell two
 * minutes behind at 10 events/s — with a forced generic plan, and again, in one run of three, when
 * PostgreSQL's own plan cache switched to the generic plan after five executions. A custom plan sees
 * the id and always takes the index; one statement with a custom plan still beats the ten of before.
 *
 * The body refers to its parameters as `$1`, `$2`, …; column names win over the output columns'
 * names. Tables resolve through the caller's search_path (the read schema of the batch); a cached
 * plan is made again when that changes.
 */
export interface StatementFunction {
  readonly name: string;
  /** The parameters' types, in order. */
  readonly parameters: readonly string[];
  /** The output columns (`name type, …`). */
  readonly returns: string;
  /** The statement: a query whose columns match `returns`. */
  readonly body: string;
  /**
   * The same statement for an object with no row below it (`$1`: its id), when that is cheaper: its
   * lookups are all by key, so it is left to the caller's plan cache (see `statementFunctionDdl`).
   */
  readonly leafBody?: string;
}

/**
 * Whether any row, live or a tombstone, lies below the object `$1` (the ancestor_ids GIN index). Planned
 * for its argument: a generic plan could not see that the array holds one id, and scan the table.
 */
const hasDescendants = 'EXISTS (SELECT 1 FROM portal_objects d WHERE d.ancestor_ids @> ARRAY[$1::uuid])';

/**
 * A leaf's statement, when there is one, runs under the caller's plan setting instead of the forced
 * custom plan. Its plan may then be generic: every row it reads is found by key (the object, its
 * parents, the destination's path, the one sibling holding a slug), so no argument can make a generic
 * plan scan a table, and the planning that makes most of a custom-planned statement's time is saved.
 */
function leafBranch(statement: StatementFunction): string {
  if (statement.leafBody === undefined) return '';
  return `
  IF NOT ${hasDescendants} THEN
    PERFORM set_config('plan_cache_mode', caller_plans, true);
    RETURN QUERY ${statement.leafBody};
    RETURN;
  END IF;`;
}

export function statementFunctionDdl(statement: StatementFunction): string {
  return `
CREATE OR REPLACE FUNCTION ${statement.name}(${statement.parameters.join(', ')})
RETURNS TABLE (${statement.returns}) LANGUAGE plpgsql VOLATILE AS $statement$
#variable_conflict use_column
DECLARE caller_plans text := current_setting('plan_cache_mode');
BEGIN
  -- For this statement only: the caller's setting is back before the next one (a failure rolls the
  -- batch back, and the transaction-local setting with it).
  PERFORM set_config('plan_cache_mode', 'force_custom_plan', true);${leafBranch(statement)}
  RETURN QUERY ${statement.body};
  PERFORM set_config('plan_cache_mode', caller_plans, true);
END
$statement$;
`;
}

/** The call of the function, as a prepared statement of the projector. */
export function statementCall(statement: StatementFunction): { name: string; text: string } {
  const parameters = statement.parameters.map((type, index) => `$${index + 1}::${type}`);
  return {
    name: `projector_${statement.name}`,
    text: `SELECT * FROM ${statement.name}(${parameters.join(', ')})`,
  };
}
