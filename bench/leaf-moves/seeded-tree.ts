import { createHash } from 'node:crypto';
import type { Sql } from '@portal/read-model-core';

/** The tree the leaf moves are measured on: catalogs, collections below them, ready items below those. */
export interface TreeShape {
  readonly catalogs: number;
  readonly collectionsPerCatalog: number;
  readonly itemsPerCollection: number;
}

export const rowsOf = (shape: TreeShape): number =>
  shape.catalogs * (1 + shape.collectionsPerCatalog * (1 + shape.itemsPerCollection));

/** Ids derived from names, so a run can name any object without reading it back. */
export const catalogId = (c: number): string => uuidOf(`catalog-${c}`);
export const collectionId = (c: number, k: number): string => uuidOf(`collection-${c}-${k}`);
export const itemId = (c: number, k: number, i: number): string => uuidOf(`item-${c}-${k}-${i}`);

/** The same derivation as the SQL below: the md5 of the name, read as a uuid. */
function uuidOf(name: string): string {
  const hex = createHash('md5').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const md5Uuid = (name: string): string => `md5(${name})::uuid`;

/**
 * Fills `portal_objects` of the search_path's read schema in three INSERTs (the inventory totals follow
 * through their triggers) with rows as the projector would have written them: one organization, public,
 * ready items with a box and an instant each (their stored JSON marked unstorable, so no text is due),
 * every collection's child count and items extent, every catalog's child count. Item slugs
 * (`item-c<c>-k<k>-i<i>`) end in no candidate number, so no two of them are of one slug family.
 */
export async function seedTree(sql: Sql, shape: TreeShape, orgId: string, userId: string): Promise<void> {
  const common = `$1::uuid, 1, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', $2::uuid,
                  portal_read_principals($1::uuid, $2::uuid, 'public', '{}')`;
  const columns = `id, kind, status, title, slug, parent_id, ancestor_ids, depth, child_count, org_id, version,
                   created_at, updated_at, created_by, read_principals`;
  await sql.query(
    `INSERT INTO portal_objects (${columns})
     SELECT ${md5Uuid(`'catalog-' || c`)}, 'catalog', 'ready', 'Catalog ' || c, 'catalog-' || c, NULL, '{}', 1, $3,
            ${common}
       FROM generate_series(1, $4::integer) c`,
    [orgId, userId, shape.collectionsPerCatalog, shape.catalogs],
  );
  await sql.query(
    `INSERT INTO portal_objects (${columns})
     SELECT ${md5Uuid(`'collection-' || c || '-' || k`)}, 'collection', 'ready', 'Collection ' || k,
            'collection-' || k, ${md5Uuid(`'catalog-' || c`)}, ARRAY[${md5Uuid(`'catalog-' || c`)}], 2, $3, ${common}
       FROM generate_series(1, $4::integer) c, generate_series(1, $5::integer) k`,
    [orgId, userId, shape.itemsPerCollection, shape.catalogs, shape.collectionsPerCatalog],
  );
  await sql.query(
    `INSERT INTO portal_objects (${columns}, bbox, datetime, stac_item)
     SELECT ${md5Uuid(`'item-' || c || '-' || k || '-' || i`)}, 'item', 'ready', 'Item c' || c || ' k' || k || ' i' || i,
            'item-c' || c || '-k' || k || '-i' || i, ${md5Uuid(`'collection-' || c || '-' || k`)},
            ARRAY[${md5Uuid(`'catalog-' || c`)}, ${md5Uuid(`'collection-' || c || '-' || k`)}], 3, 0, ${common},
            ARRAY[w, s, w + 1, s + 1]::double precision[], '2020-01-01T00:00:00Z'::timestamptz + i * interval '1 day', ''
       FROM generate_series(1, $3::integer) c, generate_series(1, $4::integer) k, generate_series(1, $5::integer) i,
            LATERAL (SELECT ((c * 7 + k * 13 + i * 31) % 340) - 170 AS w, ((c * 3 + k * 5 + i * 11) % 160) - 80 AS s) box`,
    [orgId, userId, shape.catalogs, shape.collectionsPerCatalog, shape.itemsPerCollection],
  );
  await sql.query(
    `UPDATE portal_objects p
        SET items_bbox = e.box, items_start = e.starts, items_end = e.ends
       FROM (SELECT parent_id, ARRAY[min(bbox[1]), min(bbox[2]), max(bbox[3]), max(bbox[4])] AS box,
                    min(datetime) AS starts, max(datetime) AS ends
               FROM portal_objects WHERE kind = 'item' GROUP BY parent_id) e
      WHERE p.id = e.parent_id`,
  );
  await sql.query('ANALYZE portal_objects');
}
