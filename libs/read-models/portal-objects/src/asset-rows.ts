import type { Pool } from '@portal/platform';
import { QueryParams } from '@portal/read-model-core';
import { visibleObject, type Principals } from './visibility.js';

/** A row of `read.assets` as pg returns it (bigint as text). */
export interface AssetRow {
  readonly id: string;
  readonly item_id: string;
  readonly bucket: string;
  readonly key: string;
  readonly size_bytes: string;
  readonly etag: string;
  readonly content_type: string | null;
  readonly file_name: string | null;
  readonly created_at: Date;
}

const assetColumns =
  'a.id, a.item_id, a.bucket, a.key, a.size_bytes, a.etag, a.content_type, a.file_name, a.created_at';

/** The assets of several items in one query, oldest first per item (items the caller was shown). */
export async function findAssetsOf(pool: Pool, itemIds: readonly string[]): Promise<Map<string, AssetRow[]>> {
  const byItem = new Map<string, AssetRow[]>();
  if (itemIds.length === 0) return byItem;
  const result = await pool.query<AssetRow>(
    `SELECT ${assetColumns} FROM read.assets a WHERE a.item_id = ANY($1::uuid[]) ORDER BY a.created_at, a.id`,
    [itemIds],
  );
  for (const row of result.rows) {
    const list = byItem.get(row.item_id) ?? [];
    list.push(row);
    byItem.set(row.item_id, list);
  }
  return byItem;
}

/** One asset of an item the caller can see: what a download may hand out; `null` answers 404. */
export async function findAssetOfVisibleItem(
  pool: Pool,
  itemId: string,
  assetId: string,
  principals: Principals,
): Promise<AssetRow | null> {
  const params = new QueryParams();
  const result = await pool.query<AssetRow>(
    `SELECT ${assetColumns} FROM read.assets a JOIN read.portal_objects o ON o.id = a.item_id
      WHERE a.item_id = ${params.add(itemId, 'uuid')} AND a.id = ${params.add(assetId, 'uuid')}
        AND ${visibleObject('o', principals, params)}`,
    params.values,
  );
  return result.rows[0] ?? null;
}
