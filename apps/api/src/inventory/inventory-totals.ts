import {
  portalItemStatuses,
  portalKinds,
  type InventoryQuery,
  type InventoryTotals,
  type PortalItemStatus,
  type PortalKind,
} from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { oneOf } from '../browser/node-queries.js';
import { QueryParams } from '../browser/query-params.js';
import { visibleTotals } from '../browser/visibility.js';
import { inventoryConditions, totalsFromTable } from './inventory-filter.js';

interface BucketRow {
  readonly kind: PortalKind;
  readonly status: PortalItemStatus;
  /** bigints as text. */
  readonly objects: string;
  readonly bytes: string;
}

/** From `read.inventory_totals`, which the projector keeps per organization, kind and status: a few rows. */
async function maintainedBuckets(pool: Pool, query: InventoryQuery): Promise<BucketRow[]> {
  const params = new QueryParams();
  const where = [visibleTotals('t', params)];
  if (query.kind) where.push(oneOf('t.kind', query.kind, params));
  if (query.status) where.push(oneOf('t.status', query.status, params));
  const result = await pool.query<BucketRow>(
    `SELECT t.kind, t.status, sum(t.object_count)::text AS objects, sum(t.asset_bytes)::text AS bytes
       FROM read.inventory_totals t
      WHERE ${where.join(' AND ')}
      GROUP BY t.kind, t.status`,
    params.values,
  );
  return result.rows;
}

/**
 * Counted for this request, for filters the table is not kept by (`parentId`, `q`): one scan of the
 * matching rows, which carry their assets' bytes (for a parent, an index-only scan of
 * `portal_objects_parent_totals`).
 */
async function countedBuckets(pool: Pool, query: InventoryQuery): Promise<BucketRow[]> {
  const params = new QueryParams();
  const matching = inventoryConditions('o', query, params).join(' AND ');
  const result = await pool.query<BucketRow>(
    `SELECT o.kind, o.status, count(*)::text AS objects, sum(o.asset_bytes)::text AS bytes
       FROM read.portal_objects o
      WHERE ${matching}
      GROUP BY o.kind, o.status`,
    params.values,
  );
  return result.rows;
}

function zeroes<Key extends string>(keys: readonly Key[]): Record<Key, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<Key, number>;
}

/** Totals of everything the inventory request matches, whatever page it asks for. */
export async function inventoryTotals(pool: Pool, query: InventoryQuery): Promise<InventoryTotals> {
  const buckets = totalsFromTable(query)
    ? await maintainedBuckets(pool, query)
    : await countedBuckets(pool, query);
  const totals: InventoryTotals = {
    objects: 0,
    byKind: zeroes(portalKinds),
    byStatus: zeroes(portalItemStatuses),
    assetBytes: 0,
  };
  for (const bucket of buckets) {
    const objects = Number(bucket.objects);
    totals.objects += objects;
    totals.byKind[bucket.kind] += objects;
    totals.byStatus[bucket.status] += objects;
    totals.assetBytes += Number(bucket.bytes);
  }
  return totals;
}
