/**
 * A statement kept in the read schema as a PL/pgSQL function. It first gathers the ids of the rows
 * below the object, planned for the id (the ancestor_ids GIN index); a leaf or a small subtree (at most
 * `keyedSubtreeLimit` rows below) then runs the statement with the subtree given by those ids, on a
 * plan cached for the session; a larger subtree runs the statement that finds its rows through the GIN
 * index, planned for its arguments at every call (`force_custom_plan` for that statement alone).
 *
 * Why not one generic plan: a move, a delete and an access change are each one large statement (many
 * CTEs), and planning one is a large part of its time (a leaf move 24–26 ms with custom plans, 8–9 ms
 * generic, on a loaded machine; the ten statements of before took 38 ms). But a generic plan cannot
 * see the id, and on a skewed tree it goes wrong: after 100,000 children were loaded under a few
 * catalogs (the bulk e2e test's stack), moves and shares took 70–100 ms each and the projector fell two
 * minutes behind at 10 events/s — with a forced generic plan, and again, in one run of three, when
 * PostgreSQL's own plan cache switched to the generic plan after five executions. A custom plan sees
 * the id and always takes the index. The statement given the subtree's ids reads every row by key (the
 * rows of the subtree, the destination and its path, the one sibling holding a slug, the parents), so
 * no argument can make its generic plan scan a table; and with few rows, whatever join order that plan
 * chose for the subtree's own rows stays cheap.
 *
 * JIT compilation is off in these functions: the planner's row estimates for a subtree's access (each
 * row's path, each step's shares) pass its threshold from about a hundred rows, and compiling the
 * statement took 80–120 ms where executing it took about 45 (a move of 259 rows).
 *
 * The bodies refer to their parameters as `$1`, `$2`, …, and to the gathered ids as `descendantIds`;
 * column names win over the output columns' names. Tables resolve through the caller's search_path
 * (the read schema of the batch); a cached plan is made again when that changes.
 */
export interface StatementFunction {
  readonly name: string;
  /** The parameters' types, in order (`$1` is the object's id). */
  readonly parameters: readonly string[];
  /** The output columns (`name type, …`). */
  readonly returns: string;
  /** The statement for a large subtree: a query whose columns match `returns`. */
  readonly body: string;
  /**
   * The same statement with the rows below the object (`$1`) given as `descendantIds` (none for a leaf),
   * each read by key, so it is run on a cached plan (see `statementFunctionDdl`).
   */
  readonly keyedBody: string;
}

/** The PL/pgSQL variable holding the ids of every row, live or a tombstone, below the object `$1`. */
export const descendantIds = 'descendant_ids';

/**
 * The most rows below an object for which the statement runs on its cached plan. Bounds what a plan
 * made for any subtree can cost on these rows, and what gathering them reads before a large subtree
 * takes the custom plan.
 */
export const keyedSubtreeLimit = 100;

/**
 * The ids below the object `$1`, at most one more than `limit` (so a large subtree is known as such
 * without reading all of it), through the ancestor_ids GIN index: planned for the id (a generic plan
 * could not see that the array holds one id, and scan the table), with sequential scans off for this
 * query alone, since with a LIMIT the planner would scan the table for a subtree holding a large share
 * of it, stopping at the limit only if its rows happen to come early.
 */
function gatherDescendants(limit: number): string {
  return `ARRAY(SELECT d.id FROM portal_objects d WHERE d.ancestor_ids @> ARRAY[$1::uuid] LIMIT ${limit + 1})`;
}

/**
 * The keyed statement's plan: generic (made once per session and kept until the table's statistics
 * change), unless the caller plans every statement for its parameters (a schema not analyzed yet, whose
 * statistics would make a generic plan for an empty table). Generic is forced, not left to PostgreSQL's
 * choice after five executions: the generic estimate counts ten ids where a leaf has none, so the
 * choice would keep planning every call.
 */
const keyedPlans = `CASE WHEN caller_plans = 'force_custom_plan' THEN caller_plans ELSE 'force_generic_plan' END`;

/**
 * The function's DDL. `keyedLimit` is `keyedSubtreeLimit` but in tests, which build schemas whose
 * statements all take one way (-1: every object, a leaf too, through the GIN index) to compare them.
 */
export function statementFunctionDdl(statement: StatementFunction, keyedLimit = keyedSubtreeLimit): string {
  return `
CREATE OR REPLACE FUNCTION ${statement.name}(${statement.parameters.join(', ')})
RETURNS TABLE (${statement.returns}) LANGUAGE plpgsql VOLATILE SET jit = off AS $statement$
#variable_conflict use_column
DECLARE
  caller_plans text := current_setting('plan_cache_mode');
  caller_scans text := current_setting('enable_seqscan');
  ${descendantIds} uuid[];
BEGIN
  -- For these statements only: the caller's setting is back before the next one (a failure rolls the
  -- batch back, and the transaction-local setting with it).
  PERFORM set_config('plan_cache_mode', 'force_custom_plan', true);
  PERFORM set_config('enable_seqscan', 'off', true);
  ${descendantIds} := ${gatherDescendants(keyedLimit)};
  PERFORM set_config('enable_seqscan', caller_scans, true);
  IF cardinality(${descendantIds}) <= ${keyedLimit} THEN
    PERFORM set_config('plan_cache_mode', ${keyedPlans}, true);
    RETURN QUERY ${statement.keyedBody};
  ELSE
    RETURN QUERY ${statement.body};
  END IF;
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
