import type { PortalItemStatus, PortalKind } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import type { QueryParams } from '@portal/read-model-core';
import type { PortalObjectRow } from './portal-object-rows.js';
import { visibleChildCount, type Principals } from './visibility.js';

// The shapes the API's reads take from `read.portal_objects` beside the whole row (`PortalObjectRow`),
// each with the column list that selects it. Each row type's fields are listed once, in a record keyed
// by them (a field missing there or one too many is a compile error), and `reader-rows.int.test.ts`
// (apps/api) runs each column list against a real read schema and expects exactly those fields back.

/** Every field of a row type, in the order selected: `stored` is a column of the table as it is. */
type FieldsOf<Row> = Record<keyof Row, 'stored' | 'computed'>;

function storedOf<Row>(fields: FieldsOf<Row>): string[] {
  return Object.entries(fields)
    .filter(([, how]) => how === 'stored')
    .map(([field]) => field);
}

/** A browser node: the stored columns, and `child_count`, the children the caller can see. */
export interface NodeRow {
  readonly id: string;
  readonly kind: PortalKind;
  readonly status: PortalItemStatus;
  readonly title: string;
  readonly slug: string;
  readonly parent_id: string | null;
  readonly depth: number;
  /** Children the caller can see. */
  readonly child_count: number;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export const nodeRowFields: FieldsOf<NodeRow> = {
  id: 'stored',
  kind: 'stored',
  status: 'stored',
  title: 'stored',
  slug: 'stored',
  parent_id: 'stored',
  depth: 'stored',
  created_at: 'stored',
  updated_at: 'stored',
  child_count: 'computed',
};
const storedNodeFields = storedOf(nodeRowFields);

/** The columns of a `NodeRow` of `alias`, as every browser query selects them. */
export function nodeColumns(alias: string, principals: Principals, params: QueryParams): string {
  return [
    ...storedNodeFields.map((column) => `${alias}.${column}`),
    `${visibleChildCount(alias, principals, params)} AS child_count`,
  ].join(', ');
}

/** One step of a breadcrumb path; all `NULL` for an ancestor the caller cannot see (an outer join). */
export interface CrumbRow {
  readonly id: string | null;
  readonly kind: PortalKind | null;
  readonly title: string | null;
  readonly slug: string | null;
}

export const crumbRowFields: FieldsOf<CrumbRow> = {
  id: 'stored',
  kind: 'stored',
  title: 'stored',
  slug: 'stored',
};

/** The columns of a `CrumbRow` of `alias`. */
export function crumbColumns(alias: string): string {
  return storedOf(crumbRowFields)
    .map((column) => `${alias}.${column}`)
    .join(', ');
}

/**
 * What the read model knows of an object today and its events alone do not: the slug the projector made
 * unique among siblings, and a container's extent computed from the ready items below it.
 */
export interface TodaysRow {
  readonly title: string;
  readonly slug: string;
  readonly items_bbox: [number, number, number, number] | null;
  readonly items_start: Date | null;
  readonly items_end: Date | null;
}

export const todaysRowFields: FieldsOf<TodaysRow> = {
  title: 'stored',
  slug: 'stored',
  items_bbox: 'stored',
  items_start: 'stored',
  items_end: 'stored',
};

/** The object's `TodaysRow`, deleted or not, whoever may see it (the caller's access is checked before). */
export async function findTodaysRow(pool: Pool, id: string): Promise<TodaysRow | null> {
  const result = await pool.query<TodaysRow>(
    `SELECT ${storedOf(todaysRowFields).join(', ')} FROM read.portal_objects WHERE id = $1`,
    [id],
  );
  return result.rows[0] ?? null;
}

/** An entry of the flat inventory: a node with the bytes of its assets (an item's; 0 for the others). */
export interface InventoryEntryRow {
  readonly id: string;
  readonly kind: PortalKind;
  readonly status: PortalItemStatus;
  readonly title: string;
  readonly description: string | null;
  readonly slug: string;
  readonly parent_id: string | null;
  readonly depth: number;
  /** Children the caller can see. */
  readonly child_count: number;
  /** bigint as text. */
  readonly asset_bytes: string;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export const inventoryEntryRowFields: FieldsOf<InventoryEntryRow> = {
  id: 'stored',
  kind: 'stored',
  status: 'stored',
  title: 'stored',
  description: 'stored',
  slug: 'stored',
  parent_id: 'stored',
  depth: 'stored',
  child_count: 'computed',
  created_at: 'stored',
  updated_at: 'stored',
  asset_bytes: 'computed',
};
const storedEntryFields = storedOf(inventoryEntryRowFields);

/**
 * The columns of an `InventoryEntryRow` of `alias`. The assets' bytes are summed per row, which costs
 * only as many rows as the page holds.
 */
export function inventoryEntryColumns(alias: string, principals: Principals, params: QueryParams): string {
  return [
    ...storedEntryFields.map((column) => `${alias}.${column}`),
    `${visibleChildCount(alias, principals, params)} AS child_count`,
    `CASE WHEN ${alias}.kind = 'item'
          THEN COALESCE((SELECT sum(a.size_bytes) FROM read.assets a WHERE a.item_id = ${alias}.id), 0)
          ELSE 0 END::text AS asset_bytes`,
  ].join(', ');
}

/** A catalog or collection with the time its page key continues from (text, as the reader formats it). */
export interface ContainerRow extends PortalObjectRow {
  readonly key_time: string;
}

/** A catalog or collection with its sort key values (text), which a page's tokens continue from. */
export interface SortedContainerRow extends PortalObjectRow {
  readonly sort_keys: (string | null)[];
}

/** An item directly under a container, with the time its page key continues from. */
export interface DirectItemRow {
  readonly id: string;
  /** The id its STAC client gave it, when not a UUID. */
  readonly stac_id: string | null;
  readonly key_time: string;
}
