import { randomUUID } from 'node:crypto';
import {
  inventoryQuerySchema,
  portalItemListQuerySchema,
  portalItemStatuses,
  portalKinds,
  type InventoryTotals,
  type PortalKind,
} from '@portal/contracts';
import { callerPrincipals } from '@portal/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessScenario } from '../../test/support/access-scenario.js';
import { useReadDatabase } from '../../test/support/read-database.js';
import { seedTree, type NodeSpec, type SeededTree } from '../../test/support/seeded-tree.js';
import type { ModelCaller } from '../../test/support/visibility-model.js';
import { getCatalog, listCatalogs } from '../catalogs/catalog-queries.js';
import { inventoryPage } from '../inventory/inventory-page.js';
import { inventoryTotals } from '../inventory/inventory-totals.js';
import { listPortalObjects } from '../portal-items/list-portal-items.js';
import { portalItemRecord } from '../portal-items/portal-item-record.js';
import {
  findAssetOfVisibleItem,
  findVisibleObject,
  findVisibleObjects,
  findUploadOfVisibleItem,
} from '@portal/read-model-portal-objects';

const db = useReadDatabase('visible_reads');
const { specs, callers } = accessScenario();
const baseUrl = 'http://portal.test';
let tree: SeededTree;
const assetOf = new Map<string, string>();

beforeAll(async () => {
  tree = await seedTree(db.pool, specs);
  // An upload and an asset for every item, so each can be asked for whether or not it is visible.
  for (const { spec, id } of tree.nodes.values()) {
    if (spec.kind !== 'item') continue;
    const asset = randomUUID();
    assetOf.set(spec.key, asset);
    await db.pool.query(
      `INSERT INTO read.uploads (item_id, upload_id, bucket, key, part_size, status, expires_at, version,
         created_at, updated_at)
       VALUES ($1, 'upload', 'bucket', $2, 5242880, 'ready', now(), 1, now(), now())`,
      [id, `items/${id}`],
    );
    await db.pool.query(
      `INSERT INTO read.assets (id, item_id, bucket, key, size_bytes, etag, created_at)
       VALUES ($1, $2, 'bucket', $3, 0, 'etag', now())`,
      [asset, id, `items/${id}`],
    );
  }
});

const sorted = (keys: Iterable<string>) => [...keys].sort();
const keysOf = (rows: readonly { readonly id: string }[]) => rows.map((row) => tree.keyOf(row.id));
const visibleKeys = (caller: ModelCaller, filter: (key: string) => boolean = () => true) =>
  sorted([...tree.nodes.keys()].filter((key) => filter(key) && tree.visibleTo(caller, key)));
const visibleChildren = (caller: ModelCaller, key: string) =>
  tree.node(key).children.filter((child) => tree.visibleTo(caller, child)).length;
const kindOf = (key: string): PortalKind => tree.node(key).spec.kind;

async function wholeInventory(caller: ModelCaller, query: Record<string, string>) {
  const principals = callerPrincipals(caller);
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const parsed = inventoryQuerySchema.parse({ ...query, limit: '2', ...(cursor ? { cursor } : {}) });
    const page = await inventoryPage(db.pool, parsed, principals);
    for (const entry of page.items) {
      keys.push(tree.keyOf(entry.id));
      expect([entry.id, entry.childCount]).toEqual([entry.id, visibleChildren(caller, tree.keyOf(entry.id))]);
    }
    cursor = page.next ?? undefined;
  } while (cursor !== undefined);
  return sorted(keys);
}

function expectedTotals(keys: readonly string[]): InventoryTotals {
  const specsOf = keys.map((key) => tree.node(key).spec);
  const count = <Key extends string>(values: readonly Key[], of: (spec: NodeSpec) => Key) =>
    Object.fromEntries(
      values.map((value) => [value, specsOf.filter((spec) => of(spec) === value).length]),
    ) as Record<Key, number>;
  return {
    objects: keys.length,
    byKind: count(portalKinds, (spec) => spec.kind),
    byStatus: count(portalItemStatuses, (spec) => spec.status ?? 'ready'),
    assetBytes: specsOf.reduce((sum, spec) => sum + (spec.assetBytes ?? 0), 0),
  };
}

describe.each(callers)('reads as %s', (_who, caller) => {
  const principals = callerPrincipals(caller);

  it('lists and totals in the inventory only what the caller can see, with every filter', async () => {
    const filters: [Record<string, string>, (key: string) => boolean][] = [
      [{}, () => true],
      [{ kind: 'item,catalog' }, (key) => kindOf(key) !== 'collection'],
      [{ status: 'failed' }, (key) => tree.node(key).spec.status === 'failed'],
      [{ parentId: tree.node('pub').id }, (key) => tree.node(key).spec.parent === 'pub'],
      [{ parentId: tree.node('secret').id }, (key) => tree.node(key).spec.parent === 'secret'],
      [{ q: 'item title' }, (key) => key.endsWith('item')],
      [{ sort: 'updatedAt', order: 'desc' }, () => true],
    ];
    for (const [query, matches] of filters) {
      const expected = visibleKeys(caller, matches);
      expect([query, await wholeInventory(caller, query)]).toEqual([query, expected]);
      const totals = await inventoryTotals(db.pool, inventoryQuerySchema.parse(query), principals);
      expect([query, totals]).toEqual([query, expectedTotals(expected)]);
    }
  });

  it('lists portal items, catalogs and their children only when visible, across pages', async () => {
    const items: string[] = [];
    let cursor: string | undefined;
    do {
      const query = portalItemListQuerySchema.parse({ limit: '3', ...(cursor ? { cursor } : {}) });
      const page = await listPortalObjects(db.pool, query, principals);
      items.push(...keysOf(page.rows));
      cursor = page.next ?? undefined;
    } while (cursor !== undefined);
    expect(sorted(items)).toEqual(visibleKeys(caller));

    const underPub = await listPortalObjects(
      db.pool,
      portalItemListQuerySchema.parse({ parentId: tree.node('pub').id, kind: 'item' }),
      principals,
    );
    expect(sorted(keysOf(underPub.rows))).toEqual(
      visibleKeys(caller, (key) => tree.node(key).spec.parent === 'pub' && kindOf(key) === 'item'),
    );

    const catalogs = await listCatalogs(db.pool, { limit: 100 }, principals);
    expect(sorted(keysOf(catalogs.items))).toEqual(visibleKeys(caller, (key) => kindOf(key) === 'catalog'));
    for (const catalog of catalogs.items) {
      expect([catalog.id, catalog.childCount]).toEqual([
        catalog.id,
        visibleChildren(caller, tree.keyOf(catalog.id)),
      ]);
    }
  });

  it('finds one object, a catalog or a collection only when visible, else as if it did not exist', async () => {
    for (const { spec, id } of tree.nodes.values()) {
      const visible = tree.visibleTo(caller, spec.key);
      const row = await findVisibleObject(db.pool, id, principals);
      expect([spec.key, row?.id ?? null]).toEqual([spec.key, visible ? id : null]);
      if (row) expect([spec.key, row.child_count]).toEqual([spec.key, visibleChildren(caller, spec.key)]);
      const catalog = await getCatalog(db.pool, id, principals);
      expect([spec.key, catalog?.id ?? null]).toEqual([
        spec.key,
        visible && spec.kind === 'catalog' ? id : null,
      ]);
      const collection = await findVisibleObject(db.pool, id, principals, 'collection');
      expect([spec.key, collection?.id ?? null]).toEqual([
        spec.key,
        visible && spec.kind === 'collection' ? id : null,
      ]);
    }
    const everyId = [...tree.nodes.values()].map((node) => node.id);
    expect(sorted(keysOf(await findVisibleObjects(db.pool, everyId, principals)))).toEqual(
      visibleKeys(caller),
    );
  });

  it('summarises in linksPortalItems only the linked objects the caller can see, keeping every link', async () => {
    for (const key of ['shared-item', 'legacy-item']) {
      const row = await findVisibleObject(db.pool, tree.node(key).id, principals);
      if (!row) continue;
      const record = await portalItemRecord(db.pool, row, baseUrl, principals);
      const linked = tree.node(key).spec.linksTo ?? [];
      expect(record.links.map((link) => link.href)).toEqual(linked.map((target) => tree.node(target).id));
      expect(keysOf(record.linksPortalItems)).toEqual(
        linked.filter((target) => tree.visibleTo(caller, target)),
      );
    }
  });

  it('answers an upload status and an asset download only for an item the caller can see', async () => {
    for (const [key, asset] of assetOf) {
      const { id } = tree.node(key);
      const visible = tree.visibleTo(caller, key);
      const upload = await findUploadOfVisibleItem(db.pool, id, principals);
      expect([key, upload?.item_id ?? null]).toEqual([key, visible ? id : null]);
      const download = await findAssetOfVisibleItem(db.pool, id, asset, principals);
      expect([key, download?.id ?? null]).toEqual([key, visible ? asset : null]);
    }
  });
});

describe('the scenario has teeth', () => {
  it('hides something from everyone but the admin, and shows everyone something', () => {
    for (const [who, caller] of callers) {
      const seen = visibleKeys(caller);
      expect([who, seen.length > 0]).toEqual([who, true]);
      if (!who.startsWith('alice')) expect([who, seen.length < tree.nodes.size]).toEqual([who, true]);
    }
  });
});
