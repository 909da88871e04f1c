import type { HrefAsset, Link } from '@portal/domain';
import type { NewObjectRow } from './new-object-row.js';
import { storedStacItemText } from './stored-stac-item.js';
import { zonedInstantMicros } from './zoned-timestamp.js';

// A new item's stored STAC JSON goes in with its row: rendered afterwards (stale-stac-items.ts), it would
// be a second version of a row just written, with an entry in every index of the table again. It is
// rendered here from the create's values as the row read back would hold them (JSON as jsonb gives it
// back, times as node-postgres parses them), for the common case of a live item in a collection; any
// other (see `createdStacItemText`) is left to the render at the end of the batch.

/**
 * A timestamptz text as node-postgres gives it back (to the millisecond, the microseconds cut), or
 * `null` for a text not read here exactly as PostgreSQL reads it (see `zonedInstantMicros`).
 */
export function dateAsRead(text: string): Date | null {
  // Date.UTC reads years 0–99 as 1900–1999.
  if (Number(text.slice(0, 4)) < 100) return null;
  const micros = zonedInstantMicros(text);
  return micros === null ? null : new Date(Math.floor(micros / 1000));
}

/** jsonb's order of an object's keys: shorter first (in UTF-8 bytes), then by bytes. */
function compareJsonbKeys(a: string, b: string): number {
  // Printable ASCII compares the same as UTF-16 and as bytes; anything else is compared as bytes.
  const plain = /^[ -~]*$/;
  if (plain.test(a) && plain.test(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length - right.length || Buffer.compare(left, right);
}

/** A parsed JSON value as jsonb gives it back: every object's keys in jsonb's order (the last of a duplicate wins in both). */
export function asJsonb(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asJsonb);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, inner]): [string, unknown] => [key, asJsonb(inner)]);
  entries.sort(([a], [b]) => compareJsonbKeys(a, b));
  return Object.fromEntries(entries);
}

/** JSON text as the jsonb column gives it back, parsed. */
export function jsonbOf(text: string): unknown {
  return asJsonb(JSON.parse(text));
}

function optionalDate(text: string | null): Date | null | undefined {
  return text === null ? null : (dateAsRead(text) ?? undefined);
}

/**
 * The stored JSON of a new item whose parent is a collection (the insert keeps it only then, and only
 * for a live row), or `null`: the render at the end of the batch then writes it. Also `null` for a
 * time not read here exactly as PostgreSQL would, and for a geometry without a bbox (its footprint's
 * box is PostGIS's to say).
 */
export function createdStacItemText(row: NewObjectRow): string | null {
  if (row.kind !== 'item' || row.parentId === null) return null;
  if (row.geometry !== null && row.bbox === null) return null;
  const at = dateAsRead(row.occurredAt);
  const datetime = optionalDate(row.datetime);
  const start = optionalDate(row.startDatetime);
  const end = optionalDate(row.endDatetime);
  if (at === null || datetime === undefined || start === undefined || end === undefined) return null;
  return storedStacItemText(
    {
      id: row.id,
      stac_id: row.stacId,
      title: row.title,
      description: row.description,
      parent_id: row.parentId,
      parent_kind: 'collection',
      // Kept only below a collection without a name (run-creates.ts, item-handlers.ts).
      parent_stac_id: null,
      footprint_bbox: null,
      status: row.status,
      geometry: row.geometry === null ? null : (jsonbOf(row.geometry) as Record<string, unknown>),
      bbox: row.bbox === null ? null : [...row.bbox],
      datetime,
      start_datetime: start,
      end_datetime: end,
      properties: row.properties === null ? null : (jsonbOf(row.properties) as Record<string, unknown>),
      href_assets: jsonbOf(row.hrefAssets ?? '[]') as HrefAsset[],
      links: jsonbOf(row.links) as Link[],
      version: row.version,
      tags: [],
      created_at: at,
      updated_at: at,
    },
    [],
  );
}
