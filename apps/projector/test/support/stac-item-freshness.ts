import type { Pool } from '@portal/platform';
import {
  itemRowColumns,
  stacItem,
  storedStacItemText,
  UNSTORABLE_ITEM,
  withBaseUrl,
  itemUrls,
  type ItemAsset,
  type ItemRow,
} from '@portal/read-model-portal-objects';

/**
 * The live items of `schema` whose stored STAC JSON is not what the API would build from their row and
 * assets as they stand now (missing, or left behind a change), with what differs. Empty when every text
 * is in step. Items whose text could not be stored must say so for a reason `storedStacItemText` gives.
 */
export async function itemsOutOfStep(
  pool: Pool,
  schema: string,
): Promise<{ id: string; stored: string | null; built: string }[]> {
  const result = await pool.query<ItemRow & { stac_item: string | null; assets: ItemAsset[] }>(
    `SELECT ${itemRowColumns}, o.stac_item,
            (SELECT COALESCE(json_agg(json_build_object('id', a.id, 'item_id', a.item_id,
                                                        'size_bytes', a.size_bytes::text,
                                                        'content_type', a.content_type, 'file_name', a.file_name)
                                      ORDER BY a.created_at, a.id), '[]')
               FROM "${schema}".assets a WHERE a.item_id = o.id) AS assets
       FROM "${schema}".portal_objects o
       LEFT JOIN "${schema}".portal_objects p ON p.id = o.parent_id
      WHERE o.kind = 'item' AND o.deleted_at IS NULL`,
  );
  const baseUrl = 'https://portal.example/base';
  const out: { id: string; stored: string | null; built: string }[] = [];
  for (const row of result.rows) {
    const built = JSON.stringify(stacItem(row, row.assets, itemUrls(baseUrl), baseUrl));
    const fine =
      row.stac_item === UNSTORABLE_ITEM
        ? storedStacItemText(row, row.assets) === UNSTORABLE_ITEM
        : row.stac_item !== null && withBaseUrl(row.stac_item, baseUrl) === built;
    if (!fine) out.push({ id: row.id, stored: row.stac_item, built });
  }
  return out;
}

/** How many live items of `schema` have a stored text (so a test knows it checked some). */
export async function storedItemCount(pool: Pool, schema: string): Promise<number> {
  const result = await pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM "${schema}".portal_objects
      WHERE kind = 'item' AND deleted_at IS NULL AND stac_item <> ''`,
  );
  return result.rows[0]?.count ?? 0;
}
