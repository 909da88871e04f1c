import {
  type AssetAttached,
  type ItemEvent,
  type ItemRegistered,
  type ItemUploadStarted,
  type RecordedEvent,
  type UploadStatus,
} from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { unionIntoParentSql } from './collection-extent.js';
import { createdStacItemText } from './created-stac-item.js';
import { newObjectRow } from './new-object-row.js';
import { insertPlaced, placedInsertStatements } from './placed-insert.js';

// An item's upload lifecycle on three tables: its `portal_objects` row (status, metadata), its `uploads`
// row and its `assets`. Each statement is guarded by the version of the row it changes, so a replay
// changes nothing. A tombstoned item row is frozen as it was deleted (reads answer 404 for it); only its
// upload goes on being recorded, e.g. the `UploadAborted` that cleans up an upload left open by a delete.

/** The item events that change an upload's status (and the item's while it is live). */
export type StatusEvent = Exclude<ItemEvent, ItemUploadStarted | ItemRegistered | AssetAttached>;

export async function applyItemEvent(sql: Sql, event: ItemEvent, recorded: RecordedEvent): Promise<void> {
  switch (event.type) {
    case 'ItemUploadStarted':
      return uploadStarted(sql, event, recorded);
    case 'ItemRegistered':
      return registered(sql, event, recorded);
    case 'AssetAttached':
      return assetAttached(sql, event, recorded);
    case 'UploadCompletionRequested':
    case 'UploadFailed':
    case 'UploadAborted':
    case 'UploadExpired':
    case 'UploadCompleted':
      return changeUploadStatus(sql, event.data.id, recorded, statusChangeOf(event));
    default:
      return exhausted(event);
  }
}

/** What a status event changes: the same whether it is applied alone or in a run. */
export function statusChangeOf(event: StatusEvent): StatusChange {
  switch (event.type) {
    case 'UploadCompletionRequested':
      return { status: 'processing', statusMessage: null };
    case 'UploadFailed':
      return { status: 'failed', statusMessage: event.data.statusMessage };
    case 'UploadAborted':
      return { status: 'aborted' };
    case 'UploadExpired':
      return { status: 'expired' };
    case 'UploadCompleted':
      return { status: 'ready', statusMessage: null };
    default:
      return exhausted(event);
  }
}

function exhausted(event: never): never {
  throw new Error(`unhandled item event ${JSON.stringify(event)}`);
}

/**
 * A new item's stored STAC JSON (`param`, rendered for a parent that is a collection known by its UUID:
 * created-stac-item.ts), kept only when the parent is one and the row is live; otherwise the end of the
 * batch renders it (a collection named by its client is known by its name, which the event does not carry).
 */
function storedWithInsert(param: string): string {
  return `CASE WHEN parent.parent_kind = 'collection' AND parent.parent_stac_id IS NULL AND NOT parent.under_tombstone
               THEN ${param}::text END`;
}

/** The insert of an item and its upload (`$8` on: its own columns, then the upload's). */
export const uploadStartedInsert = placedInsertStatements({
  name: 'item',
  columns: [
    'kind',
    'status',
    'title',
    'description',
    'links',
    'tags',
    'bbox',
    'geometry',
    'footprint',
    'datetime',
    'start_datetime',
    'end_datetime',
    'properties',
    'version',
    'stac_id',
    'stac_item',
  ],
  values: [
    "'item'",
    "'uploading'",
    '$8',
    '$9',
    '$10::jsonb',
    '$11::jsonb',
    '$12::double precision[]',
    '$13::jsonb',
    // Never fails: a geometry PostGIS cannot read falls back to the bbox, then to NULL (schema.sql).
    'portal_footprint($13::jsonb, $12::double precision[])',
    '$14::timestamptz',
    '$15::timestamptz',
    '$16::timestamptz',
    '$17::jsonb',
    '$18',
    '$29',
    storedWithInsert('$28'),
  ],
  // The upload goes in with the item, in the same round trip; a replay inserts neither.
  alongside: `uploaded AS (
        INSERT INTO uploads (item_id, upload_id, bucket, key, part_size, part_count, size_bytes, file_name,
                             content_type, status, expires_at, version, created_at, updated_at)
        SELECT $1, $19, $20, $21, $22, $23, $24, $25, $26, 'uploading', $27, $18, $4, $4
         WHERE EXISTS (SELECT 1 FROM inserted)
        ON CONFLICT (item_id) DO NOTHING
      )`,
  ownValues: (row) => {
    const { upload } = row;
    if (!upload) throw new Error(`item ${row.id} comes without its upload`);
    return [
      row.title,
      row.description,
      row.links,
      row.tags,
      row.bbox,
      row.geometry,
      row.datetime,
      row.startDatetime,
      row.endDatetime,
      row.properties,
      row.version,
      upload.uploadId,
      upload.bucket,
      upload.key,
      upload.partSize,
      upload.partCount,
      upload.size,
      upload.fileName,
      upload.contentType,
      upload.expiresAt,
      createdStacItemText(row),
      row.stacId,
    ];
  },
});

/** The insert of an item registered by href: `ready` at once with its assets, and no upload. */
export const registeredInsert = placedInsertStatements({
  name: 'registered_item',
  columns: [
    'kind',
    'status',
    'title',
    'description',
    'links',
    'tags',
    'bbox',
    'geometry',
    'footprint',
    'datetime',
    'start_datetime',
    'end_datetime',
    'properties',
    'version',
    'href_assets',
    'stac_id',
    'stac_item',
  ],
  values: [
    "'item'",
    "'ready'",
    '$8',
    '$9',
    '$10::jsonb',
    '$11::jsonb',
    '$12::double precision[]',
    '$13::jsonb',
    'portal_footprint($13::jsonb, $12::double precision[])',
    '$14::timestamptz',
    '$15::timestamptz',
    '$16::timestamptz',
    '$17::jsonb',
    '$18',
    '$19::jsonb',
    '$20',
    storedWithInsert('$21'),
  ],
  ownValues: (row) => [
    row.title,
    row.description,
    row.links,
    row.tags,
    row.bbox,
    row.geometry,
    row.datetime,
    row.startDatetime,
    row.endDatetime,
    row.properties,
    row.version,
    row.hrefAssets ?? '[]',
    row.stacId,
    createdStacItemText(row),
  ],
});

/**
 * A registered item widens its parent's extent as a completed upload does. A statement of its own: the
 * insert already updates the parent row (its child count), and one statement cannot update a row twice.
 * Only while the item row is still as this event left it (live, not moved since); a union by min and max,
 * so applying it again changes nothing.
 */
const registeredExtentSql = `
  WITH ready_item AS (
    SELECT parent_id, bbox, datetime, start_datetime, end_datetime FROM portal_objects
     WHERE id = $1 AND version = $2 AND deleted_at IS NULL
  ), extent AS (${unionIntoParentSql('ready_item')}
  )
  SELECT 1`;

async function registered(sql: Sql, event: ItemRegistered, recorded: RecordedEvent): Promise<void> {
  await insertPlaced(sql, registeredInsert, newObjectRow(event, recorded));
  await sql.query({
    name: 'projector_items_registered_extent',
    text: registeredExtentSql,
    values: [event.data.id, recorded.revision.toString()],
  });
}

function uploadStarted(sql: Sql, event: ItemUploadStarted, recorded: RecordedEvent): Promise<void> {
  return insertPlaced(sql, uploadStartedInsert, newObjectRow(event, recorded));
}

export interface StatusChange {
  readonly status: Exclude<UploadStatus, 'uploading'>;
  /**
   * Why the upload failed; `null` clears an earlier failure's message. Left out, the message stays, as
   * the domain keeps it when an upload that failed is aborted or expires.
   */
  readonly statusMessage?: string | null;
}

/** Statuses after which the upload is over: nothing more happens to it. */
export const endingStatuses: ReadonlySet<UploadStatus> = new Set<UploadStatus>([
  'ready',
  'aborted',
  'expired',
]);

/**
 * One round trip: the upload row, the item row while it is live, and, when the item has just become
 * ready, its parent's extent (only after the item row moved, so a replay widens nothing).
 */
const changeStatusSql = `
  WITH upload AS (
    UPDATE uploads
       SET status = $3, status_message = CASE WHEN $7::boolean THEN status_message ELSE $4 END,
           version = $2, updated_at = $5,
           completion_requested_at = CASE WHEN $3 = 'processing' THEN $5::timestamptz ELSE completion_requested_at END,
           ended_at = CASE WHEN $6::boolean THEN $5::timestamptz ELSE ended_at END
     WHERE item_id = $1 AND version < $2
  ), item AS (
    UPDATE portal_objects
       SET status = $3, status_message = CASE WHEN $7::boolean THEN status_message ELSE $4 END,
           version = $2, updated_at = $5
     WHERE id = $1 AND version < $2 AND deleted_at IS NULL
    RETURNING parent_id, bbox, datetime, start_datetime, end_datetime
  ), ready_item AS (
    SELECT * FROM item WHERE $3 = 'ready'
  ), extent AS (${unionIntoParentSql('ready_item')}
  )
  SELECT EXISTS (SELECT 1 FROM uploads WHERE item_id = $1) AS known`;

async function changeUploadStatus(
  sql: Sql,
  itemId: string,
  recorded: RecordedEvent,
  change: StatusChange,
): Promise<void> {
  const result = await sql.query<{ known: boolean }>({
    name: 'projector_items_change_upload_status',
    text: changeStatusSql,
    values: [
      itemId,
      recorded.revision.toString(),
      change.status,
      change.statusMessage ?? null,
      recorded.metadata.occurredAt,
      endingStatuses.has(change.status),
      change.statusMessage === undefined,
    ],
  });
  if (result.rows[0]?.known !== true) throw new Error(`item ${itemId} is not in the read model`);
}

async function assetAttached(sql: Sql, event: AssetAttached, recorded: RecordedEvent): Promise<void> {
  const { id, asset } = event.data;
  const result = await sql.query<{ known: boolean }>({
    name: 'projector_items_asset_attached',
    text: `
      WITH attached AS (
        INSERT INTO assets (id, item_id, bucket, key, size_bytes, etag, content_type, file_name, created_at)
        VALUES ($3, $1, $4, $5, $6, $7, $8, $9, $10)
        ON CONFLICT (id) DO NOTHING
      ), item AS (
        UPDATE portal_objects SET version = $2, updated_at = $10, asset_bytes = asset_bytes + $6
         WHERE id = $1 AND version < $2 AND deleted_at IS NULL
      )
      SELECT EXISTS (SELECT 1 FROM uploads WHERE item_id = $1) AS known`,
    values: [
      id,
      recorded.revision.toString(),
      asset.id,
      asset.bucket,
      asset.key,
      asset.size,
      asset.etag,
      asset.contentType,
      asset.fileName,
      recorded.metadata.occurredAt,
    ],
  });
  if (result.rows[0]?.known !== true) throw new Error(`item ${id} is not in the read model`);
}
