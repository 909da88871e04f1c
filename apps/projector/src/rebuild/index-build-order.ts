import type { Pool } from '@portal/platform';

/**
 * How much more a GIN or GiST index costs to build than a B-tree over the same rows (each row gives it
 * many keys, or a costlier split): rough, measured on the portal's own indexes, and only used to order.
 */
const treeOfManyKeys = 3;

/** The table a `CREATE INDEX … ON [<schema>.]<table>` indexes. */
function indexedTable(statement: string): string | null {
  const match = /\bON\s+(?:ONLY\s+)?(?:"?\w+"?\.)?"?(\w+)"?\s*(?:USING|\()/i.exec(statement);
  return match?.[1] ?? null;
}

/**
 * The index statements, the most costly first: by the bytes of the table each indexes (`tableBytes`,
 * times `treeOfManyKeys` for GIN and GiST), ties in their given order. Sessions that each take the
 * next one then end close together, instead of one big index started last running alone.
 */
export function costliestFirst(
  statements: readonly string[],
  tableBytes: ReadonlyMap<string, number>,
): string[] {
  const cost = (statement: string): number => {
    const table = indexedTable(statement);
    const size = table === null ? 0 : (tableBytes.get(table) ?? 0);
    return /\bUSING\s+(?:gin|gist)\b/i.test(statement) ? size * treeOfManyKeys : size;
  };
  return statements
    .map((statement, order) => ({ statement, order, cost: cost(statement) }))
    .sort((a, b) => b.cost - a.cost || a.order - b.order)
    .map(({ statement }) => statement);
}

/** `costliestFirst` by the tables' sizes in `schema` now. */
export async function largestFirst(
  pool: Pool,
  schema: string,
  statements: readonly string[],
): Promise<string[]> {
  const sizes = await pool.query<{ name: string; bytes: string }>(
    `SELECT c.relname AS name, pg_relation_size(c.oid)::text AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r'`,
    [schema],
  );
  return costliestFirst(statements, new Map(sizes.rows.map((row) => [row.name, Number(row.bytes)])));
}
