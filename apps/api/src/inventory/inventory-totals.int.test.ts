import {
  inventoryQuerySchema,
  portalItemStatuses,
  portalKinds,
  type InventoryTotals,
  type PortalItemStatus,
  type PortalKind,
} from '@portal/contracts';
import { callerPrincipals, holdsAny } from '@portal/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { recomputeSubtreeAccess } from '@portal/read-model-portal-objects';
import { accessScenario } from '../../test/support/access-scenario.js';
import { useReadDatabase } from '../../test/support/read-database.js';
import { seedTree, type SeededTree } from '../../test/support/seeded-tree.js';
import { inventoryTotals } from './inventory-totals.js';

const db = useReadDatabase('inventory_totals');
const { specs, callers } = accessScenario();
let tree: SeededTree;

beforeAll(async () => {
  tree = await seedTree(db.pool, specs);
});

/** The filters `read.inventory_totals` answers: none, kinds, statuses. */
const tableFilters: Record<string, string>[] = [
  {},
  { kind: 'item' },
  { kind: 'item,catalog' },
  { status: 'failed' },
  { kind: 'item', status: 'ready,failed' },
];

interface LiveRow {
  readonly kind: PortalKind;
  readonly status: PortalItemStatus;
  readonly asset_bytes: string;
  readonly read_principals: string[];
}

/**
 * The totals counted in TypeScript over every live row, visible by the domain's rule (`holdsAny`): what
 * the caller sees, independently of both the totals table and the API's SQL.
 */
async function expectedTotals(principals: readonly string[], raw: Record<string, string>) {
  const query = inventoryQuerySchema.parse(raw);
  const rows = await db.pool.query<LiveRow>(
    'SELECT kind, status, asset_bytes::text, read_principals FROM read.portal_objects WHERE deleted_at IS NULL',
  );
  const seen = rows.rows.filter(
    (row) =>
      holdsAny(principals, row.read_principals) &&
      (query.kind?.includes(row.kind) ?? true) &&
      (query.status?.includes(row.status) ?? true),
  );
  const count = <Key extends string>(keys: readonly Key[], of: (row: LiveRow) => Key) =>
    Object.fromEntries(keys.map((key) => [key, seen.filter((row) => of(row) === key).length])) as Record<
      Key,
      number
    >;
  const totals: InventoryTotals = {
    objects: seen.length,
    byKind: count(portalKinds, (row) => row.kind),
    byStatus: count(portalItemStatuses, (row) => row.status),
    assetBytes: seen.reduce((sum, row) => sum + Number(row.asset_bytes), 0),
  };
  return totals;
}

async function expectExactForEveryCaller(): Promise<void> {
  for (const [who, caller] of callers) {
    const principals = callerPrincipals(caller);
    for (const filter of tableFilters) {
      const totals = await inventoryTotals(db.pool, inventoryQuerySchema.parse(filter), principals);
      expect([who, filter, totals]).toEqual([who, filter, await expectedTotals(principals, filter)]);
    }
  }
}

/** The organization Olga acts in. */
function olgasOrg(): string {
  const orgId = callers.find(([who]) => who.startsWith('olga'))?.[1].orgId;
  if (!orgId) throw new Error('Olga is a member of an organization');
  return orgId;
}

/** Changes the object's own access and recomputes its subtree, as the projector's handlers do. */
async function changeAccess(key: string, set: string, values: unknown[]): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL search_path TO read, public');
    await client.query(`UPDATE portal_objects SET ${set} WHERE id = $1`, [tree.node(key).id, ...values]);
    await recomputeSubtreeAccess(client, tree.node(key).id);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

describe('inventory totals from read.inventory_totals', () => {
  it('are exact for every caller, unfiltered and by kind and status', async () => {
    await expectExactForEveryCaller();
  });

  it('stay exact when visibility changes, shares come and go, and subtrees are deleted', async () => {
    await changeAccess('pub', "visibility = 'private'", []);
    await expectExactForEveryCaller();
    const toOlgasOrg = { principal: { type: 'organization', id: olgasOrg() }, permission: 'viewer' };
    await changeAccess('org-root', 'shares = $2', [JSON.stringify([toOlgasOrg])]);
    await expectExactForEveryCaller();
    await changeAccess('pub', "visibility = 'public'", []);
    await changeAccess('team-b-share', "shares = '[]'", []);
    await expectExactForEveryCaller();
    await db.pool.query(
      'UPDATE read.portal_objects SET deleted_at = now() WHERE id = $1 OR ancestor_ids @> ARRAY[$1::uuid]',
      [tree.node('org-coll').id],
    );
    await expectExactForEveryCaller();
  });

  it('are summed from the table for those filters, and counted from the rows for q and parentId', async () => {
    // A bucket only this caller's principal reaches, of objects that do not exist: only the table has it.
    const principals = ['public', 'user:totals-probe'];
    await db.pool.query(
      `INSERT INTO read.inventory_totals (read_principals, kind, status, object_count, asset_bytes)
       VALUES ('{user:totals-probe}', 'item', 'failed', 5, 50)`,
    );
    try {
      const summed = await inventoryTotals(db.pool, inventoryQuerySchema.parse({ kind: 'item' }), principals);
      const anonymous = await expectedTotals(['public'], { kind: 'item' });
      expect(summed.objects).toBe(anonymous.objects + 5);
      expect(summed.byStatus.failed).toBe(anonymous.byStatus.failed + 5);
      expect(summed.assetBytes).toBe(anonymous.assetBytes + 50);
      for (const filter of [{ q: 'title' }, { parentId: tree.node('pub').id }]) {
        const counted = await inventoryTotals(db.pool, inventoryQuerySchema.parse(filter), principals);
        expect(counted.byStatus.failed).toBeLessThan(5);
      }
    } finally {
      await db.pool.query(`DELETE FROM read.inventory_totals WHERE read_principals = '{user:totals-probe}'`);
    }
  });

  it('differ between callers: no caller’s view is a set of whole organizations', async () => {
    const seen = new Set<number>();
    for (const [, caller] of callers) {
      const principals = callerPrincipals(caller);
      seen.add((await inventoryTotals(db.pool, inventoryQuerySchema.parse({}), principals)).objects);
    }
    expect(seen.size).toBeGreaterThan(2);
  });
});
