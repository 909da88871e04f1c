import type { InventoryEntry, InventoryQuery } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { cursorOf, decodeKeysetCursor, type KeyedRow } from '../browser/keyset.js';
import { pageStatement } from '../browser/page-query.js';
import { QueryParams } from '@portal/read-model-core';
import {
  inventoryEntryColumns,
  type InventoryEntryRow,
  type Principals,
} from '@portal/read-model-portal-objects';
import { inventoryConditions, inventoryRanges } from './inventory-filter.js';

type EntryRow = InventoryEntryRow & KeyedRow;

function inventoryEntry(row: EntryRow): InventoryEntry {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    title: row.title,
    description: row.description,
    slug: row.slug,
    parentId: row.parent_id,
    depth: row.depth,
    childCount: row.child_count,
    assetBytes: Number(row.asset_bytes),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * One page of the flat inventory, of the objects the caller can see: without `q`, a few index range
 * scans merged in order (see `inventoryRanges`); with `q`, the trigram index's matches, sorted. The
 * assets' bytes are summed for the page's rows only; `childCount` counts the children the caller can see.
 */
export async function inventoryPage(
  pool: Pool,
  query: InventoryQuery,
  principals: Principals,
): Promise<{ items: InventoryEntry[]; next: string | null }> {
  const params = new QueryParams();
  const after = query.cursor === undefined ? null : decodeKeysetCursor(query.cursor, query);
  const perKind = inventoryRanges(query);
  const text = pageStatement(
    {
      select: inventoryEntryColumns('o', principals, params),
      conditions: inventoryConditions('o', query, principals, params, { kindInRanges: perKind !== null }),
      ordering: query,
      after,
      rows: query.limit + 1,
      perKind,
    },
    params,
  );
  const result = await pool.query<EntryRow>(text, params.values);
  const rows = result.rows.slice(0, query.limit);
  const last = rows.at(-1);
  return {
    items: rows.map(inventoryEntry),
    next: result.rows.length > query.limit && last ? cursorOf(query, last) : null,
  };
}
