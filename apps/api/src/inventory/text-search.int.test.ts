import { randomUUID } from 'node:crypto';
import { QueryParams } from '@portal/read-model-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useReadDatabase } from '../../test/support/read-database.js';
import { seedTree, type NodeSpec, type SeededTree } from '../../test/support/seeded-tree.js';
import { containsText } from './text-search.js';

const db = useReadDatabase('text_search');
const orgId = randomUUID();
const inOrg = { orgId, visibility: 'public', createdBy: null } as const;
const specs: NodeSpec[] = [
  { key: 'tyrol', kind: 'catalog', ...inOrg, title: 'Glacier outlines of Tyrol' },
  { key: 'roads', kind: 'collection', parent: 'tyrol', ...inOrg, title: 'Road network' },
  { key: 'lidar', kind: 'item', parent: 'roads', ...inOrg, title: 'Lidar 2019' },
  { key: 'percent', kind: 'item', parent: 'roads', ...inOrg, title: '100% coverage_map' },
];
let tree: SeededTree;

beforeAll(async () => {
  tree = await seedTree(db.pool, specs);
  await db.pool.query(`UPDATE read.portal_objects SET description = $2 WHERE id = $1`, [
    tree.nodes.get('lidar')?.id,
    'Point cloud flown over the Inn valley',
  ]);
});

type PlanNode = Record<string, unknown> & { readonly Plans?: readonly PlanNode[] };

/** Every node of an `EXPLAIN (FORMAT JSON)` plan. */
function plansIn(explained: unknown): PlanNode[] {
  const walk = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(walk)];
  return (explained as readonly { readonly Plan: PlanNode }[]).flatMap((entry) => walk(entry.Plan));
}

async function keysMatching(text: string): Promise<string[]> {
  const params = new QueryParams();
  const found = await db.pool.query<{ id: string }>(
    `SELECT o.id FROM read.portal_objects o WHERE o.deleted_at IS NULL AND ${containsText('o', text, params)}`,
    params.values,
  );
  const keyOf = new Map([...tree.nodes.values()].map((node) => [node.id, node.spec.key]));
  return found.rows.map((row) => keyOf.get(row.id) ?? row.id).sort();
}

describe('containsText', () => {
  it('finds the text anywhere in the title or the description, in any case', async () => {
    expect(await keysMatching('GLACIER')).toEqual(['tyrol']);
    expect(await keysMatching('network')).toEqual(['roads']);
    expect(await keysMatching('inn VALLEY')).toEqual(['lidar']);
    expect(await keysMatching('o')).toEqual(['lidar', 'percent', 'roads', 'tyrol']);
    expect(await keysMatching('moraine')).toEqual([]);
  });

  it('matches no text that straddles the title and the description', async () => {
    expect(await keysMatching('2019 Point')).toEqual([]);
  });

  it("takes LIKE's wildcards and its escape literally", async () => {
    expect(await keysMatching('100%')).toEqual(['percent']);
    expect(await keysMatching('e_m')).toEqual(['percent']);
    // As a wildcard, `_` would find "outlines of".
    expect(await keysMatching('s_o')).toEqual([]);
    expect(await keysMatching('%')).toEqual(['percent']);
    expect(await keysMatching('\\')).toEqual([]);
  });

  it('is a condition the trigram index answers (its expression is written exactly as the index has it)', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      // On four rows a sequential scan would win; without it, the plan searches the trigram index with the
      // pattern if the condition is its expression, and otherwise finds the rows some other way.
      await client.query('SET LOCAL enable_seqscan = off');
      const params = new QueryParams();
      const plan = await client.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) SELECT o.id FROM read.portal_objects o
          WHERE o.deleted_at IS NULL AND ${containsText('o', 'glacier', params)}`,
        params.values,
      );
      const scans = plansIn(plan.rows[0]?.['QUERY PLAN']).filter(
        (node) => node['Index Name'] === 'portal_objects_text_trigrams',
      );
      // `~~*` is ILIKE: the index is searched with the pattern, not merely read whole.
      expect(scans.map((node) => node['Index Cond'])).toEqual([expect.stringContaining('~~*')]);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
