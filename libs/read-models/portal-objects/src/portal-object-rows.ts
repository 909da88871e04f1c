import type { HrefAsset, Link, PortalKind } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { QueryParams } from '@portal/read-model-core';
import { visibleChildCount, visibleObject, type Principals } from './visibility.js';

/** A row of `read.portal_objects` as pg returns it (bigint as text, timestamps as Date). */
export interface PortalObjectRow {
  readonly id: string;
  readonly kind: PortalKind;
  readonly status: string;
  readonly title: string;
  readonly description: string | null;
  readonly parent_id: string | null;
  readonly slug: string;
  readonly ancestor_ids: string[];
  readonly depth: number;
  readonly child_count: number;
  readonly links: Link[];
  readonly license: string | null;
  readonly keywords: string[] | null;
  readonly extent: unknown;
  readonly bbox: number[] | null;
  readonly tags: string[];
  readonly status_message: string | null;
  readonly geometry: Record<string, unknown> | null;
  readonly datetime: Date | null;
  readonly start_datetime: Date | null;
  readonly end_datetime: Date | null;
  readonly properties: Record<string, unknown> | null;
  /** An item's assets registered by href (`[]` for other kinds). */
  readonly href_assets: HrefAsset[];
  /** The id a STAC client gave the item, when not a UUID (docs/stac.md, "Item ids"). */
  readonly stac_id: string | null;
  /** A container's extent computed from the ready items directly below it. */
  readonly items_bbox: [number, number, number, number] | null;
  readonly items_start: Date | null;
  readonly items_end: Date | null;
  readonly version: string;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** The columns of a row but `child_count`, which is stored (all children) or visible (a reader's). */
const rowColumns = [
  'id',
  'kind',
  'status',
  'title',
  'description',
  'parent_id',
  'slug',
  'ancestor_ids',
  'depth',
  'links',
  'license',
  'keywords',
  'extent',
  'bbox',
  'tags',
  'status_message',
  'geometry',
  'datetime',
  'start_datetime',
  'end_datetime',
  'properties',
  'href_assets',
  'stac_id',
  'items_bbox',
  'items_start',
  'items_end',
  'version',
  'created_at',
  'updated_at',
];

/** Every column as stored: what command handlers read (all children count for a delete or a move). */
export const portalObjectColumns = [...rowColumns, 'child_count'].join(', ');

/** Every column of `alias` as a reader sees it: `child_count` counts the children the caller can see. */
export function visibleObjectColumns(alias: string, principals: Principals, params: QueryParams): string {
  return [
    ...rowColumns.map((column) => `${alias}.${column}`),
    `${visibleChildCount(alias, principals, params)} AS child_count`,
  ].join(', ');
}

/**
 * An object the caller can see, optionally of one kind; `null` (404 upstream) when it is missing,
 * deleted, of another kind or hidden from the caller, which the caller cannot tell apart.
 */
export async function findVisibleObject(
  pool: Pool,
  id: string,
  principals: Principals,
  kind?: PortalKind,
): Promise<PortalObjectRow | null> {
  const params = new QueryParams();
  const conditions = [`o.id = ${params.add(id, 'uuid')}`, visibleObject('o', principals, params)];
  if (kind !== undefined) conditions.push(`o.kind = ${params.add(kind, 'text')}`);
  const result = await pool.query<PortalObjectRow>(
    `SELECT ${visibleObjectColumns('o', principals, params)} FROM read.portal_objects o
      WHERE ${conditions.join(' AND ')}`,
    params.values,
  );
  return result.rows[0] ?? null;
}

/** The objects among `ids` the caller can see (the others are left out, as if they did not exist). */
export async function findVisibleObjects(
  pool: Pool,
  ids: readonly string[],
  principals: Principals,
): Promise<PortalObjectRow[]> {
  if (ids.length === 0) return [];
  const params = new QueryParams();
  const result = await pool.query<PortalObjectRow>(
    `SELECT ${visibleObjectColumns('o', principals, params)} FROM read.portal_objects o
      WHERE o.id = ANY(${params.add(ids, 'uuid[]')}) AND ${visibleObject('o', principals, params)}`,
    params.values,
  );
  return result.rows;
}

/**
 * A live (not deleted) object, optionally of one kind, whoever may see it: for command handlers, which
 * check access against event-sourced state themselves. Reads answer callers with `findVisibleObject`.
 */
export async function findLiveObject(
  pool: Pool,
  id: string,
  kind?: PortalKind,
): Promise<PortalObjectRow | null> {
  const result = await pool.query<PortalObjectRow>(
    `SELECT ${portalObjectColumns} FROM read.portal_objects
     WHERE id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR kind = $2)`,
    [id, kind ?? null],
  );
  return result.rows[0] ?? null;
}

/** Live objects whoever may see them (command handlers); readers use `findVisibleObjects`. */
export async function findLiveObjects(pool: Pool, ids: readonly string[]): Promise<PortalObjectRow[]> {
  if (ids.length === 0) return [];
  const result = await pool.query<PortalObjectRow>(
    `SELECT ${portalObjectColumns} FROM read.portal_objects WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [ids],
  );
  return result.rows;
}

/** Levels below the object (0 for a leaf): bounds a move so the subtree stays within MAX_DEPTH. */
export async function subtreeHeight(pool: Pool, id: string, depth: number): Promise<number> {
  const result = await pool.query<{ deepest: number | null }>(
    `SELECT max(depth) AS deepest FROM read.portal_objects WHERE ancestor_ids @> ARRAY[$1::uuid] AND deleted_at IS NULL`,
    [id],
  );
  const deepest = result.rows[0]?.deepest ?? null;
  return deepest === null ? 0 : deepest - depth;
}
