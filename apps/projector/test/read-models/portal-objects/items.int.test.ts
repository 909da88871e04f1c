import type { GeoJsonGeometry, RecordedEvent } from '@portal/domain';
import type { QueryConfig, QueryResult } from 'pg';
import { describe, expect, it } from 'vitest';
import {
  assetAttached,
  assetOf,
  completed,
  completionRequested,
  itemUploadStarted,
  uploadAborted,
  uploadCompleted,
  uploadExpired,
  uploadFailed,
} from '../../support/item-events.js';
import { catalogCreated, collectionCreated, deleted, moved, updated } from '../../support/portal-events.js';
import { useReadSchemas } from '../../support/read-schemas.js';
import { iso, Timeline } from '../../support/timeline.js';
import type { Sql } from '@portal/read-model-core';
import { portalObjectsReadModel } from '@portal/read-model-portal-objects';

const db = useReadSchemas('items');
const row = (id: string) => db.row(id);
const extentOf = async (id: string) => {
  const parent = await row(id);
  return { bbox: parent.items_bbox, start: iso(parent.items_start), end: iso(parent.items_end) };
};

/** A timeline with a catalog and a collection below it, for items to go in. */
function withCollection(title: string) {
  const timeline = new Timeline(db);
  const catalog = catalogCreated({ title: `${title} catalog` });
  const collection = collectionCreated({ title, parentId: catalog.data.id });
  timeline.add(catalog, collection);
  return { timeline, catalog, collection, ids: [catalog.data.id, collection.data.id] };
}

const square: GeoJsonGeometry = {
  type: 'Polygon',
  coordinates: [
    [
      [30, 40],
      [32, 40],
      [32, 43],
      [30, 40],
    ],
  ],
};

/** How many statements this read model sends for each event, applied one by one in one transaction. */
async function roundTrips(events: readonly RecordedEvent[]): Promise<number[]> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL search_path TO "${db.schema}", public`);
    const counts: number[] = [];
    for (const event of events) {
      let count = 0;
      const query = (config: string | QueryConfig, values?: unknown[]): Promise<QueryResult> => {
        count += 1;
        return client.query(config, values);
      };
      const counting = { query } as Sql;
      await portalObjectsReadModel.apply(counting, event, { log: db.logger });
      counts.push(count);
    }
    await client.query('COMMIT');
    return counts;
  } finally {
    client.release();
  }
}

describe('portal_objects: items and their uploads', () => {
  it('projects an item upload started: the item row below its parent, its footprint and its upload', async () => {
    const { timeline, catalog, collection, ids } = withCollection('Started');
    const item = itemUploadStarted({
      title: 'Scene 1',
      parentId: collection.data.id,
      links: [
        {
          title: 'src',
          href: 'https://x.example',
          rel: 'via',
          type: 'text/html',
          targetType: 'url',
          linkJson: {},
        },
      ],
      metadata: {
        geometry: square,
        datetime: '2024-05-01T10:00:00.000Z',
        tags: ['s2', 'l2a'],
        properties: { cloud: 3 },
      },
      upload: { partCount: null, size: null, fileName: null, contentType: null },
    });
    const at = timeline.add(item);
    await timeline.applyNew();

    const itemRow = await row(item.data.id);
    expect(itemRow).toMatchObject({
      kind: 'item',
      status: 'uploading',
      status_message: null,
      title: 'Scene 1',
      description: null,
      parent_id: collection.data.id,
      slug: 'scene-1',
      ancestor_ids: [catalog.data.id, collection.data.id],
      depth: 3,
      child_count: 0,
      links: item.data.links,
      tags: ['s2', 'l2a'],
      // No bbox given: the geometry's.
      bbox: [30, 40, 32, 43],
      geometry: square,
      properties: { cloud: 3 },
      license: null,
      keywords: null,
      extent: null,
      version: '0',
      deleted_at: null,
    });
    expect([
      iso(itemRow.datetime),
      iso(itemRow.start_datetime),
      iso(itemRow.created_at),
      iso(itemRow.updated_at),
    ]).toEqual(['2024-05-01T10:00:00.000Z', null, at, at]);
    expect(await db.footprint(item.data.id)).toBe('SRID=4326;POLYGON((30 40,32 40,32 43,30 40))');
    expect(await db.upload(item.data.id)).toMatchObject({
      upload_id: item.data.upload.uploadId,
      bucket: 'portal-test',
      key: item.data.upload.key,
      part_size: String(8 * 1024 * 1024),
      part_count: null,
      size_bytes: null,
      file_name: null,
      content_type: null,
      status: 'uploading',
      status_message: null,
      completion_requested_at: null,
      ended_at: null,
      version: '0',
    });
    expect(iso((await db.upload(item.data.id)).expires_at)).toBe(item.data.upload.expiresAt);
    expect((await row(collection.data.id)).child_count).toBe(1);
    // Only ready items count in the extent.
    expect(await extentOf(collection.data.id)).toEqual({ bbox: null, start: null, end: null });

    await timeline.expectReplaySafe([...ids, item.data.id]);
  });

  it('takes its footprint from the bbox (split at the antimeridian), and never fails on a geometry PostGIS refuses', async () => {
    const { timeline, collection, ids } = withCollection('Footprints');
    const boxed = itemUploadStarted({
      title: 'Boxed',
      parentId: collection.data.id,
      metadata: { bbox: [1, 2, 3, 4] },
    });
    const crossing = itemUploadStarted({
      title: 'Crossing',
      parentId: collection.data.id,
      metadata: { bbox: [170, -10, -170, 0] },
    });
    // The request schema would refuse it; the projector must not halt on it anyway.
    const unreadable = { type: 'Polygon', coordinates: [[[0]]] } as unknown as GeoJsonGeometry;
    const broken = itemUploadStarted({
      title: 'Broken',
      parentId: collection.data.id,
      metadata: { geometry: unreadable, bbox: [5, 6, 7, 8] },
    });
    const bare = itemUploadStarted({ title: 'Bare', parentId: collection.data.id });
    timeline.add(boxed, crossing, broken, bare);
    await timeline.applyNew();

    expect(await db.footprint(boxed.data.id)).toBe('SRID=4326;POLYGON((1 2,1 4,3 4,3 2,1 2))');
    expect(await db.footprint(crossing.data.id)).toBe(
      'SRID=4326;MULTIPOLYGON(((170 -10,170 0,180 0,180 -10,170 -10)),((-180 -10,-180 0,-170 0,-170 -10,-180 -10)))',
    );
    expect(await db.footprint(broken.data.id)).toBe('SRID=4326;POLYGON((5 6,5 8,7 8,7 6,5 6))');
    expect((await row(broken.data.id)).geometry).toEqual(unreadable);
    expect(await db.footprint(bare.data.id)).toBeNull();
    expect((await row(bare.data.id)).bbox).toBeNull();

    await timeline.expectReplaySafe([
      ...ids,
      ...[boxed, crossing, broken, bare].map((event) => event.data.id),
    ]);
  });

  it('goes uploading → processing → ready, attaching its asset and widening its collection’s extent', async () => {
    const { timeline, collection, ids } = withCollection('Ready path');
    const item = itemUploadStarted({
      title: 'Scene',
      parentId: collection.data.id,
      metadata: {
        bbox: [10, 20, 11, 21],
        startDatetime: '2024-01-01T00:00:00.000Z',
        endDatetime: '2024-02-01T00:00:00.000Z',
      },
    });
    timeline.add(item);
    const requestedAt = timeline.add(completionRequested(item));
    await timeline.applyNew();
    expect(await row(item.data.id)).toMatchObject({ status: 'processing', version: '1' });
    expect(await db.upload(item.data.id)).toMatchObject({
      status: 'processing',
      version: '1',
      ended_at: null,
    });
    expect(iso((await db.upload(item.data.id)).completion_requested_at)).toBe(requestedAt);

    const asset = assetOf(item);
    const attachedAt = timeline.add(assetAttached(item, asset));
    await timeline.applyNew();
    expect(await row(item.data.id)).toMatchObject({ status: 'processing', version: '2' });
    expect(iso((await row(item.data.id)).updated_at)).toBe(attachedAt);
    const assets = await db.assets(item.data.id);
    expect(assets).toEqual([
      {
        id: asset.id,
        item_id: item.data.id,
        bucket: asset.bucket,
        key: asset.key,
        size_bytes: String(asset.size),
        etag: asset.etag,
        content_type: 'image/tiff',
        file_name: 'file.tif',
        created_at: new Date(attachedAt),
      },
    ]);
    expect(await extentOf(collection.data.id)).toEqual({ bbox: null, start: null, end: null });

    const collectionBefore = await row(collection.data.id);
    const readyAt = timeline.add(uploadCompleted(item, asset));
    await timeline.applyNew();
    const ready = await row(item.data.id);
    expect(ready).toMatchObject({ status: 'ready', status_message: null, version: '3' });
    expect(iso(ready.updated_at)).toBe(readyAt);
    expect(await db.upload(item.data.id)).toMatchObject({ status: 'ready', version: '3' });
    expect(iso((await db.upload(item.data.id)).ended_at)).toBe(readyAt);
    expect(await extentOf(collection.data.id)).toEqual({
      bbox: [10, 20, 11, 21],
      start: '2024-01-01T00:00:00.000Z',
      end: '2024-02-01T00:00:00.000Z',
    });
    // The extent is the projector's, not an event on the collection's stream.
    expect(await row(collection.data.id)).toMatchObject({
      version: collectionBefore.version,
      updated_at: collectionBefore.updated_at,
    });

    await timeline.expectReplaySafe([...ids, item.data.id]);
  });

  it('records a failure with its message, clears it on the next completion request, then gets ready', async () => {
    const { timeline, collection, ids } = withCollection('Failure path');
    const item = itemUploadStarted({
      title: 'Retried',
      parentId: collection.data.id,
      metadata: { bbox: [0, 0, 1, 1] },
    });
    timeline.add(
      item,
      completionRequested(item),
      uploadFailed(item, 'part 2 is missing; upload it and complete again'),
    );
    await timeline.applyNew();
    expect(await row(item.data.id)).toMatchObject({
      status: 'failed',
      status_message: 'part 2 is missing; upload it and complete again',
    });
    expect(await db.upload(item.data.id)).toMatchObject({
      status: 'failed',
      status_message: 'part 2 is missing; upload it and complete again',
      ended_at: null,
    });
    expect((await extentOf(collection.data.id)).bbox).toBeNull();

    const againAt = timeline.add(completionRequested(item));
    await timeline.applyNew();
    expect(await row(item.data.id)).toMatchObject({ status: 'processing', status_message: null });
    const upload = await db.upload(item.data.id);
    expect([upload.status, upload.status_message, iso(upload.completion_requested_at)]).toEqual([
      'processing',
      null,
      againAt,
    ]);

    timeline.add(...completed(item));
    await timeline.applyNew();
    expect(await row(item.data.id)).toMatchObject({ status: 'ready', version: '5' });
    expect(await db.assets(item.data.id)).toHaveLength(1);
    expect((await extentOf(collection.data.id)).bbox).toEqual([0, 0, 1, 1]);

    await timeline.expectReplaySafe([...ids, item.data.id]);
  });

  it('ends an upload aborted or expired (keeping an earlier failure’s message), outside the extent', async () => {
    const { timeline, collection, ids } = withCollection('Ended uploads');
    const aborted = itemUploadStarted({
      title: 'Aborted',
      parentId: collection.data.id,
      metadata: { bbox: [0, 0, 1, 1] },
    });
    const expired = itemUploadStarted({
      title: 'Expired',
      parentId: collection.data.id,
      metadata: { bbox: [2, 2, 3, 3] },
    });
    timeline.add(aborted, expired, completionRequested(expired), uploadFailed(expired, 'too few parts'));
    const abortedAt = timeline.add(uploadAborted(aborted));
    const expiredAt = timeline.add(uploadExpired(expired));
    await timeline.applyNew();

    expect(await row(aborted.data.id)).toMatchObject({
      status: 'aborted',
      status_message: null,
      version: '1',
    });
    const abortedUpload = await db.upload(aborted.data.id);
    expect([abortedUpload.status, iso(abortedUpload.ended_at)]).toEqual(['aborted', abortedAt]);
    expect(await row(expired.data.id)).toMatchObject({
      status: 'expired',
      status_message: 'too few parts',
      version: '3',
    });
    const expiredUpload = await db.upload(expired.data.id);
    expect([expiredUpload.status, expiredUpload.status_message, iso(expiredUpload.ended_at)]).toEqual([
      'expired',
      'too few parts',
      expiredAt,
    ]);
    expect(await extentOf(collection.data.id)).toEqual({ bbox: null, start: null, end: null });

    await timeline.expectReplaySafe([...ids, aborted.data.id, expired.data.id]);
  });

  it('keeps item slugs unique among all siblings, re-derives them on a title change, and keeps a null description', async () => {
    const { timeline, catalog, collection, ids } = withCollection('Slugs');
    const first = itemUploadStarted({ title: 'Scene', parentId: catalog.data.id });
    const second = itemUploadStarted({ title: 'scene!', parentId: catalog.data.id });
    const sibling = collectionCreated({ title: 'SCENE', parentId: catalog.data.id });
    const elsewhere = itemUploadStarted({ title: 'Scene', parentId: collection.data.id });
    timeline.add(first, second, sibling, elsewhere);
    await timeline.applyNew();
    const slugs = async () =>
      Promise.all([first, second, sibling, elsewhere].map(async (event) => (await row(event.data.id)).slug));
    expect(await slugs()).toEqual(['scene', 'scene-2', 'scene-3', 'scene']);
    expect((await row(catalog.data.id)).child_count).toBe(4);

    timeline.add(
      updated({ id: first.data.id, kind: 'item', changes: { title: 'Other' }, previous: { title: 'Scene' } }),
      updated({
        id: second.data.id,
        kind: 'item',
        changes: { title: 'Scene', description: 'now described' },
        previous: { title: 'scene!', description: null },
      }),
    );
    await timeline.applyNew();
    // `scene-2` still derives from the new title: kept, so its URL survives; `Other` takes a slug of its own.
    expect(await slugs()).toEqual(['other', 'scene-2', 'scene-3', 'scene']);
    const third = itemUploadStarted({ title: 'Scene', parentId: catalog.data.id });
    timeline.add(third);
    await timeline.applyNew();
    expect((await row(third.data.id)).slug).toBe('scene');
    expect(await row(first.data.id)).toMatchObject({ description: null, version: '1' });
    expect(await row(second.data.id)).toMatchObject({ description: 'now described', version: '1' });

    await timeline.expectReplaySafe([
      ...ids,
      ...[first, second, sibling, elsewhere].map((event) => event.data.id),
    ]);
  });

  it('unions the extent over ready items: bbox, geometry only, none, the antimeridian, instants and intervals', async () => {
    const { timeline, catalog, collection, ids } = withCollection('Union');
    const boxed = itemUploadStarted({
      title: 'Boxed',
      parentId: collection.data.id,
      metadata: { bbox: [10, -5, 20, 5], datetime: '2024-03-01T00:00:00.000Z' },
    });
    const shaped = itemUploadStarted({
      title: 'Shaped',
      parentId: collection.data.id,
      metadata: { geometry: square },
    });
    const timeOnly = itemUploadStarted({
      title: 'Time only',
      parentId: collection.data.id,
      metadata: { startDatetime: '2023-12-01T00:00:00.000Z', endDatetime: '2024-01-15T00:00:00.000Z' },
    });
    const pending = itemUploadStarted({
      title: 'Pending',
      parentId: collection.data.id,
      metadata: { bbox: [-100, -80, 100, 80], datetime: '2000-01-01T00:00:00.000Z' },
    });
    const items = [boxed, shaped, timeOnly, pending];
    timeline.add(
      ...items,
      ...[boxed, shaped, timeOnly].flatMap((item) => [completionRequested(item), ...completed(item)]),
    );
    await timeline.applyNew();
    expect(await extentOf(collection.data.id)).toEqual({
      bbox: [10, -5, 32, 43],
      start: '2023-12-01T00:00:00.000Z',
      end: '2024-03-01T00:00:00.000Z',
    });
    // Only the items directly below count: the catalog has none.
    expect(await extentOf(catalog.data.id)).toEqual({ bbox: null, start: null, end: null });

    const crossing = itemUploadStarted({
      title: 'Crossing',
      parentId: collection.data.id,
      metadata: { bbox: [175, -60, -175, -50] },
    });
    timeline.add(crossing, completionRequested(crossing), ...completed(crossing));
    await timeline.applyNew();
    expect((await extentOf(collection.data.id)).bbox).toEqual([-180, -60, 180, 43]);

    await timeline.expectReplaySafe([...ids, ...[...items, crossing].map((event) => event.data.id)]);
  });

  it('recomputes the extent when a ready item is deleted or moved away, and widens the one it moves into', async () => {
    const { timeline, catalog, collection, ids } = withCollection('Recompute');
    const other = collectionCreated({ title: 'Recompute other', parentId: catalog.data.id });
    const west = itemUploadStarted({
      title: 'West',
      parentId: collection.data.id,
      metadata: { bbox: [-10, 0, -5, 5], datetime: '2024-01-01T00:00:00.000Z' },
    });
    const east = itemUploadStarted({
      title: 'East',
      parentId: collection.data.id,
      metadata: { bbox: [5, 0, 10, 5], datetime: '2024-06-01T00:00:00.000Z' },
    });
    const middle = itemUploadStarted({
      title: 'Middle',
      parentId: collection.data.id,
      metadata: { bbox: [-1, -1, 1, 1], datetime: '2024-03-01T00:00:00.000Z' },
    });
    const uploading = itemUploadStarted({
      title: 'Uploading',
      parentId: collection.data.id,
      metadata: { bbox: [50, 50, 60, 60] },
    });
    const items = [west, east, middle, uploading];
    timeline.add(
      other,
      ...items,
      ...[west, east, middle].flatMap((item) => [completionRequested(item), ...completed(item)]),
    );
    await timeline.applyNew();
    expect(await extentOf(collection.data.id)).toEqual({
      bbox: [-10, -1, 10, 5],
      start: '2024-01-01T00:00:00.000Z',
      end: '2024-06-01T00:00:00.000Z',
    });

    timeline.add(deleted({ id: east.data.id, kind: 'item', recursive: false }));
    await timeline.applyNew();
    expect(await extentOf(collection.data.id)).toEqual({
      bbox: [-10, -1, 1, 5],
      start: '2024-01-01T00:00:00.000Z',
      end: '2024-03-01T00:00:00.000Z',
    });
    expect((await row(collection.data.id)).child_count).toBe(3);

    timeline.add(
      moved({ id: west.data.id, kind: 'item', fromParentId: collection.data.id, toParentId: other.data.id }),
      // Not ready: moving it changes no extent.
      moved({
        id: uploading.data.id,
        kind: 'item',
        fromParentId: collection.data.id,
        toParentId: other.data.id,
      }),
    );
    await timeline.applyNew();
    expect(await extentOf(collection.data.id)).toEqual({
      bbox: [-1, -1, 1, 1],
      start: '2024-03-01T00:00:00.000Z',
      end: '2024-03-01T00:00:00.000Z',
    });
    expect(await extentOf(other.data.id)).toEqual({
      bbox: [-10, 0, -5, 5],
      start: '2024-01-01T00:00:00.000Z',
      end: '2024-01-01T00:00:00.000Z',
    });
    expect(await row(west.data.id)).toMatchObject({
      parent_id: other.data.id,
      ancestor_ids: [catalog.data.id, other.data.id],
    });

    timeline.add(deleted({ id: middle.data.id, kind: 'item', recursive: false }));
    await timeline.applyNew();
    expect(await extentOf(collection.data.id)).toEqual({ bbox: null, start: null, end: null });

    await timeline.expectReplaySafe([...ids, other.data.id, ...items.map((event) => event.data.id)]);
  });

  it('buries the items of a recursively deleted collection; their uploads go on being recorded, their rows stay as buried', async () => {
    const { timeline, catalog, collection, ids } = withCollection('Buried items');
    const ready = itemUploadStarted({
      title: 'Ready',
      parentId: collection.data.id,
      metadata: { bbox: [0, 0, 1, 1] },
    });
    const processing = itemUploadStarted({ title: 'Processing', parentId: collection.data.id });
    const open = itemUploadStarted({ title: 'Open', parentId: collection.data.id });
    timeline.add(
      ready,
      processing,
      open,
      completionRequested(ready),
      ...completed(ready),
      completionRequested(processing),
    );
    const deletedAt = timeline.add(deleted({ id: collection.data.id, kind: 'collection', recursive: true }));
    await timeline.applyNew();
    const buried = await Promise.all([ready, processing, open].map((item) => row(item.data.id)));
    expect(buried.map((r) => [iso(r.deleted_at), r.status])).toEqual([
      [deletedAt, 'ready'],
      [deletedAt, 'processing'],
      [deletedAt, 'uploading'],
    ]);
    expect(await row(catalog.data.id)).toMatchObject({ child_count: 0 });
    const processingBefore = await row(processing.data.id);
    const openBefore = await row(open.data.id);

    // The worker finishes the job it had, and the sweep expires the open upload: below a deleted ancestor
    // the item rows are tombstones (reads answer 404), only the uploads and assets record it.
    const finished = completed(processing);
    timeline.add(...finished);
    const expiredAt = timeline.add(uploadExpired(open));
    await timeline.applyNew();
    expect(await row(processing.data.id)).toEqual(processingBefore);
    expect(await row(open.data.id)).toEqual(openBefore);
    expect(await db.upload(processing.data.id)).toMatchObject({ status: 'ready', version: '3' });
    expect(await db.assets(processing.data.id)).toHaveLength(1);
    const expiredUpload = await db.upload(open.data.id);
    expect([expiredUpload.status, iso(expiredUpload.ended_at)]).toEqual(['expired', expiredAt]);

    await timeline.expectReplaySafe([...ids, ...[ready, processing, open].map((item) => item.data.id)]);
  });

  it('records the abort of an upload left open by the item’s own delete on the upload only', async () => {
    const { timeline, collection, ids } = withCollection('Deleted open');
    const item = itemUploadStarted({ title: 'Deleted open', parentId: collection.data.id });
    timeline.add(item, completionRequested(item), uploadFailed(item, 'checksum mismatch'));
    const deletedAt = timeline.add(deleted({ id: item.data.id, kind: 'item', recursive: false }));
    await timeline.applyNew();
    const tombstone = await row(item.data.id);
    expect([iso(tombstone.deleted_at), tombstone.status, tombstone.version]).toEqual([
      deletedAt,
      'failed',
      '3',
    ]);
    expect((await row(collection.data.id)).child_count).toBe(0);

    const abortedAt = timeline.add(uploadAborted(item));
    await timeline.applyNew();
    expect(await row(item.data.id)).toEqual(tombstone);
    const upload = await db.upload(item.data.id);
    expect([upload.status, upload.status_message, upload.version, iso(upload.ended_at)]).toEqual([
      'aborted',
      'checksum mismatch',
      '4',
      abortedAt,
    ]);

    await timeline.expectReplaySafe([...ids, item.data.id]);
  });

  it('buries an item created under a tombstoned collection, with its upload, and leaves the parent alone', async () => {
    const { timeline, catalog, collection, ids } = withCollection('Late items');
    timeline.add(deleted({ id: collection.data.id, kind: 'collection', recursive: false }));
    await timeline.applyNew();
    const parentBefore = await row(collection.data.id);

    const late = itemUploadStarted({
      title: 'Late',
      parentId: collection.data.id,
      metadata: { bbox: [0, 0, 1, 1] },
    });
    const lateAt = timeline.add(late);
    // In a race with the delete the worker may still complete it: nothing reaches the tombstoned parent.
    timeline.add(completionRequested(late), ...completed(late));
    await timeline.applyNew();
    const lateRow = await row(late.data.id);
    expect(lateRow).toMatchObject({
      status: 'uploading',
      ancestor_ids: [catalog.data.id, collection.data.id],
      slug: 'late',
      version: '0',
    });
    expect(iso(lateRow.deleted_at)).toBe(lateAt);
    expect(await db.upload(late.data.id)).toMatchObject({ status: 'ready' });
    expect(await row(collection.data.id)).toEqual(parentBefore);
    expect((await row(catalog.data.id)).child_count).toBe(0);

    await timeline.expectReplaySafe([...ids, late.data.id]);
  });

  it('takes one round trip per item event, as a catalog create does (replay speed)', async () => {
    const { timeline, collection } = withCollection('Round trips');
    const item = itemUploadStarted({
      title: 'Fast',
      parentId: collection.data.id,
      metadata: { bbox: [0, 0, 1, 1] },
    });
    timeline.add(
      item,
      completionRequested(item),
      uploadFailed(item, 'x'),
      completionRequested(item),
      ...completed(item),
    );
    const [catalog, collectionCreate, ...itemEvents] = timeline.events;
    if (!catalog || !collectionCreate) throw new Error('the timeline starts with two creates');
    expect(await roundTrips([catalog, collectionCreate, ...itemEvents])).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    // Replayed: still one each, and nothing changes.
    expect(await roundTrips(itemEvents)).toEqual([1, 1, 1, 1, 1, 1]);
  });
});
