import type { Sql } from '@portal/read-model-core';
import { itemRowColumns } from './item-row-columns.js';
import type { ItemAsset, ItemRow } from './stac-item.js';
import { storedStacItemText } from './stored-stac-item.js';

// Every change to what an item's JSON is built from clears its stored text (the trigger of schema.sql
// on the item row; a new row starts without one), and the batch renders the items left without a text
// before it commits: a reader never sees an item whose text is missing or behind its row. Rendering
// once per batch, not per event, builds an item changed by several events of the batch once.

/** The live items without a text, with their uploaded assets (oldest first, as the API lists them). */
const staleItemsSql = `
  SELECT ${itemRowColumns},
         (SELECT COALESCE(json_agg(json_build_object('id', a.id, 'item_id', a.item_id,
                                                     'size_bytes', a.size_bytes::text,
                                                     'content_type', a.content_type, 'file_name', a.file_name)
                                   ORDER BY a.created_at, a.id), '[]')
            FROM assets a WHERE a.item_id = o.id) AS assets
    FROM portal_objects o
    LEFT JOIN portal_objects p ON p.id = o.parent_id
   WHERE o.stac_item IS NULL AND o.kind = 'item' AND o.deleted_at IS NULL`;

const storeTextsSql = `
  UPDATE portal_objects o SET stac_item = s.text
    FROM unnest($1::uuid[], $2::text[]) AS s(id, text)
   WHERE o.id = s.id`;

/** Stores the text of every live item of the schema that has none. */
export async function renderStaleStacItems(sql: Sql): Promise<void> {
  const stale = await sql.query<ItemRow & { assets: ItemAsset[] }>({
    name: 'projector_portal_objects_stale_stac_items',
    text: staleItemsSql,
  });
  if (stale.rows.length === 0) return;
  await sql.query({
    name: 'projector_portal_objects_store_stac_items',
    text: storeTextsSql,
    values: [stale.rows.map((row) => row.id), stale.rows.map((row) => storedStacItemText(row, row.assets))],
  });
}
