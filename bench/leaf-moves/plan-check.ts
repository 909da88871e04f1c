import type { PoolClient } from '@portal/platform';
import { leafMovesStatement } from '../../libs/read-models/portal-objects/src/run-moves.js';

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly 'Actual Rows'?: number;
  readonly 'Actual Loops'?: number;
  readonly Plans?: readonly PlanNode[];
}

/** How the statement reads `portal_objects` under one plan: each kind of access, and rows it read. */
export interface PlanReads {
  readonly mode: 'generic' | 'custom';
  /** `<node type> <index>` (or `<node type>` for a scan without one) → how many plan nodes. */
  readonly accesses: Readonly<Record<string, number>>;
  readonly seqScans: number;
  /** Rows the accesses to portal_objects returned, over all their loops. */
  readonly rowsRead: number;
  readonly ms: number;
  /** The plan as EXPLAIN prints it (costs left out). */
  readonly text: string;
}

function collect(
  node: PlanNode,
  into: { accesses: Record<string, number>; seqScans: number; rowsRead: number },
): void {
  const onTable = node['Relation Name'] === 'portal_objects';
  if (onTable || node['Index Name']?.startsWith('portal_objects') === true) {
    const key =
      node['Index Name'] === undefined ? node['Node Type'] : `${node['Node Type']} ${node['Index Name']}`;
    into.accesses[key] = (into.accesses[key] ?? 0) + 1;
    if (node['Node Type'] === 'Seq Scan') into.seqScans += 1;
  }
  if (onTable) into.rowsRead += (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
  for (const child of node.Plans ?? []) collect(child, into);
}

/**
 * EXPLAIN ANALYZE of the leaf moves' statement with the given arguments, under a generic plan (what a
 * cached plan becomes) and a custom one, each in a transaction rolled back.
 */
export async function explainLeafMoves(
  client: PoolClient,
  schema: string,
  values: readonly (readonly (string | null)[])[],
): Promise<PlanReads[]> {
  const literal = (array: readonly (string | null)[], type: string): string =>
    `${client.escapeLiteral(`{${array.map((value) => (value === null ? 'NULL' : `"${value}"`)).join(',')}}`)}::${type}[]`;
  const types = ['uuid', 'bigint', 'uuid', 'timestamptz'];
  const args = values.map((array, index) => literal(array, types[index] ?? 'text')).join(', ');
  const reads: PlanReads[] = [];
  for (const mode of ['generic', 'custom'] as const) {
    await client.query(`BEGIN; SET LOCAL search_path TO "${schema}", public`);
    try {
      await client.query(`SET LOCAL plan_cache_mode = force_${mode}_plan; SAVEPOINT explained`);
      await client.query(
        `PREPARE leaf_moves_explained(${types.map((type) => `${type}[]`).join(', ')}) AS ${leafMovesStatement.text}`,
      );
      const result = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE leaf_moves_explained(${args})`,
      );
      const [explained] = result.rows[0]?.['QUERY PLAN'] ?? [];
      if (!explained) throw new Error('EXPLAIN answered nothing');
      const into = { accesses: {}, seqScans: 0, rowsRead: 0 };
      collect(explained.Plan, into);
      // The same plan again, as text, on the rows as they were (the first run's writes are in this
      // transaction, so it runs again in a savepoint's worth of the same rows: rolled back first).
      await client.query('ROLLBACK TO SAVEPOINT explained');
      const text = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE leaf_moves_explained(${args})`,
      );
      reads.push({
        mode,
        ...into,
        ms: explained['Execution Time'],
        text: text.rows.map((row) => row['QUERY PLAN']).join('\n'),
      });
    } finally {
      await client.query('ROLLBACK');
      // A prepared statement outlives the transaction that made it.
      await client.query('DEALLOCATE leaf_moves_explained').catch(() => undefined);
    }
  }
  return reads;
}
