import { isStacId } from '@portal/contracts';
import { isUuid } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { QueryParams } from '@portal/read-model-core';
import { visibleObjectColumns, type PortalObjectRow } from './portal-object-rows.js';
import { stacIdOf } from './stac-item.js';
import { visibleObject, type Principals } from './visibility.js';

// A STAC client names a collection by its STAC id: the name its client gave it (`sentinel-2-l2a`,
// unique among the live collections: docs/stac.md, "Collection ids"), or its UUID when it has none.
// A name is never a UUID (a create refuses one as a name), so the two never meet.

/** A collection as STAC names it: its portal UUID, and the id of its STAC URLs. */
export interface CollectionKey {
  readonly id: string;
  readonly stacId: string;
}

/**
 * The condition selecting the collection `alias` by a STAC id (binding through `params`), or `null` for a
 * text that can be no collection's id (it then names nothing: a 404, no match).
 */
export function collectionKeyCondition(alias: string, key: string, params: QueryParams): string | null {
  if (isUuid(key)) return `${alias}.id = ${params.add(key.toLowerCase(), 'uuid')}`;
  if (!isStacId(key)) return null;
  // The live one: a deleted collection's name may be held again (the partial index `portal_objects_stac_id`).
  return `${alias}.stac_id = ${params.add(key, 'text')} AND ${alias}.deleted_at IS NULL`;
}

/** The collection of a STAC id that the caller may read, or `null` (absent, unreadable, or not an id). */
export async function findVisibleCollection(
  pool: Pool,
  key: string,
  principals: Principals,
): Promise<PortalObjectRow | null> {
  const params = new QueryParams();
  const byKey = collectionKeyCondition('o', key, params);
  if (byKey === null) return null;
  const result = await pool.query<PortalObjectRow>(
    `SELECT ${visibleObjectColumns('o', principals, params)} FROM read.portal_objects o
      WHERE ${byKey} AND o.kind = 'collection' AND ${visibleObject('o', principals, params)}`,
    params.values,
  );
  return result.rows[0] ?? null;
}

/**
 * As `findVisibleCollection`, for a route that needs only the keys: the check without reading the row
 * (whose visible child count reads every child).
 */
export async function findVisibleCollectionKey(
  pool: Pool,
  key: string,
  principals: Principals,
): Promise<CollectionKey | null> {
  const params = new QueryParams();
  const byKey = collectionKeyCondition('o', key, params);
  if (byKey === null) return null;
  const result = await pool.query<{ id: string; stac_id: string | null }>(
    `SELECT o.id, o.stac_id FROM read.portal_objects o
      WHERE ${byKey} AND o.kind = 'collection' AND ${visibleObject('o', principals, params)}`,
    params.values,
  );
  const row = result.rows[0];
  return row === undefined ? null : { id: row.id, stacId: stacIdOf(row) };
}

/**
 * The collections the caller may read among STAC ids (names and UUIDs mixed, as a search's `collections`
 * gives them); one that is absent, unreadable or no id at all is left out.
 */
export async function findVisibleCollectionKeys(
  pool: Pool,
  keys: readonly string[],
  principals: Principals,
): Promise<CollectionKey[]> {
  const uuids = keys.filter((key) => isUuid(key)).map((key) => key.toLowerCase());
  const names = keys.filter((key) => !isUuid(key) && isStacId(key));
  if (uuids.length === 0 && names.length === 0) return [];
  const params = new QueryParams();
  const result = await pool.query<{ id: string; stac_id: string | null }>(
    `SELECT o.id, o.stac_id FROM read.portal_objects o
      WHERE (o.id = ANY(${params.add(uuids, 'uuid[]')})
             OR (o.stac_id = ANY(${params.add(names, 'text[]')}) AND o.deleted_at IS NULL))
        AND o.kind = 'collection' AND ${visibleObject('o', principals, params)}`,
    params.values,
  );
  return result.rows.map((row) => ({ id: row.id, stacId: stacIdOf(row) }));
}
