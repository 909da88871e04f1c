/**
 * A statement kept in the read schema as a PL/pgSQL function that plans it once per session, as a
 * generic plan, unless the batch asks for custom plans (`force_custom_plan` while a fresh schema
 * grows: a generic plan made on the statistics of an empty table scans the whole table, and its
 * moves took 40 ms at 2,000 events and 260 ms at 8,000 before the ANALYZE at 10,000, 8–10 ms after).
 *
 * Why: a move, a delete and an access change are each one large statement (many CTEs). Sent as a
 * prepared statement, PostgreSQL compares the generic plan's estimate with the custom plans' and, for
 * these, keeps planning every execution for its parameters (the subtree's GIN lookup is estimated far
 * larger without the id): measured on the replay history, planning took most of the statement's time
 * (a leaf move 24–26 ms with custom plans, 8–9 ms generic, on a loaded machine). The generic plan is
 * right for every id: each part is a primary-key or GIN lookup of one object or its subtree.
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
  IF caller_plans = 'auto' THEN
    PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
  END IF;
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
