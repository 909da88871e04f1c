import {
  portalItemStatuses,
  portalKinds,
  type InventoryQuery,
  type InventoryTotals,
} from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { oneOf } from '../browser/node-queries.js';
import { QueryParams } from '@portal/read-model-core';
import type { InventoryBucketRow as BucketRow } from '@portal/read-model-inventory-totals';
import { readableBy, type Principals } from '@portal/read-model-portal-objects';
import { inventoryConditions } from './inventory-filter.js';

/**
 * Whether `read.inventory_totals` answers the request: it holds the live objects per `read_principals`,
 * kind and status, so it knows nothing of the other filters (`q`, `parentId`, `bbox`).
 */
function totalsTableAnswers(query: InventoryQuery): boolean {
  return query.q === undefined && query.parentId === undefined && query.bbox === undefined;
}

/**
 * Summed from `read.inventory_totals`: every live object is counted in the one row of its own
 * `read_principals`, kind and status, and the caller sees it exactly when those principals overlap the
 * caller's, so the rows that overlap hold what the caller sees, each object once. A few rows (the
 * distinct principal sets), whatever the number of objects (docs/decisions.md, "Browsing").
 */
async function summedBuckets(
  pool: Pool,
  query: InventoryQuery,
  principals: Principals,
): Promise<BucketRow[]> {
  const params = new QueryParams();
  const conditions = [readableBy('t', params.addShared(principals, 'text[]'))];
  if (query.kind) conditions.push(oneOf('t.kind', query.kind, params));
  if (query.status) conditions.push(oneOf('t.status', query.status, params));
  const result = await pool.query<BucketRow>(
    `SELECT t.kind, t.status, sum(t.object_count)::text AS objects, sum(t.asset_bytes)::text AS bytes
       FROM read.inventory_totals t
      WHERE ${conditions.join(' AND ')}
      GROUP BY t.kind, t.status`,
    params.values,
  );
  return result.rows;
}

/**
 * Counted for this request among the rows the caller can see: one scan of the matching rows, which carry
 * their assets' bytes (for a parent, its range of `portal_objects_parent_totals`; with `q`, the trigram
 * index; with `bbox`, the footprints' GiST index).
 */
async function countedBuckets(
  pool: Pool,
  query: InventoryQuery,
  principals: Principals,
): Promise<BucketRow[]> {
  const params = new QueryParams();
  const matching = inventoryConditions('o', query, principals, params).join(' AND ');
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

/** Totals of everything the inventory request matches and the caller can see, whatever page it asks for. */
export async function inventoryTotals(
  pool: Pool,
  query: InventoryQuery,
  principals: Principals,
): Promise<InventoryTotals> {
  const buckets = totalsTableAnswers(query)
    ? await summedBuckets(pool, query, principals)
    : await countedBuckets(pool, query, principals);
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
