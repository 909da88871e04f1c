import { randomUUID } from 'node:crypto';
import type { HrefAsset } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { itemRegistered, itemUploadStarted } from '../../support/item-events.js';
import { catalogCreated, collectionCreated, updated } from '../../support/portal-events.js';
import { useReadSchemas } from '../../support/read-schemas.js';
import { iso, Timeline } from '../../support/timeline.js';

const db = useReadSchemas('href_assets');
const row = (id: string) => db.row(id);

const asset = (key: string, href: string, extra: Record<string, unknown> = {}): HrefAsset => ({
  id: randomUUID(),
  key,
  asset: { href, ...extra },
});

describe('portal_objects: items with assets registered by href', () => {
  it('inserts a registered item ready, with its assets and no upload, widening its collection’s extent', async () => {
    const timeline = new Timeline(db);
    const catalog = catalogCreated({ title: 'Href catalog' });
    const collection = collectionCreated({ title: 'Href collection', parentId: catalog.data.id });
    const assets = [
      asset('thumbnail', 'https://example.org/t.png', { roles: ['thumbnail'] }),
      asset('visual', 's3://bucket/v.tif', { 'proj:epsg': 32633, 'raster:nodata': null }),
    ];
    const item = itemRegistered({
      title: 'Registered',
      parentId: collection.data.id,
      assets,
      metadata: { bbox: [10, 20, 11, 21], datetime: '2024-05-01T00:00:00.000Z' },
    });
    timeline.add(catalog, collection, item);
    await timeline.applyNew();
    expect(await row(item.data.id)).toMatchObject({ status: 'ready', href_assets: assets, version: '0' });
    await expect(db.upload(item.data.id)).rejects.toThrow(/no upload/);
    const parent = await row(collection.data.id);
    expect(parent.items_bbox).toEqual([10, 20, 11, 21]);
    expect(iso(parent.items_start)).toBe('2024-05-01T00:00:00.000Z');
    expect(parent.child_count).toBe(1);

    const next = [assets[0], asset('metadata', 'https://example.org/m.xml')] as HrefAsset[];
    timeline.add(
      updated({ id: item.data.id, kind: 'item', changes: { assets: next }, previous: { assets } }),
    );
    await timeline.applyNew();
    expect(await row(item.data.id)).toMatchObject({ href_assets: next, version: '1' });

    await timeline.expectReplaySafe([catalog.data.id, collection.data.id, item.data.id]);
  });

  it('gives an uploaded item an empty list, then the assets an update adds', async () => {
    const timeline = new Timeline(db);
    const collection = collectionCreated({ title: 'Uploads with hrefs' });
    const item = itemUploadStarted({ title: 'Uploaded', parentId: collection.data.id });
    timeline.add(collection, item);
    await timeline.applyNew();
    expect(await row(item.data.id)).toMatchObject({ status: 'uploading', href_assets: [] });
    const added = [asset('thumbnail', 'https://example.org/t.png')];
    timeline.add(
      updated({ id: item.data.id, kind: 'item', changes: { assets: added }, previous: { assets: [] } }),
    );
    await timeline.applyNew();
    expect(await row(item.data.id)).toMatchObject({ status: 'uploading', href_assets: added });
    await timeline.expectReplaySafe([collection.data.id, item.data.id]);
  });

  it('applies a metadata change: columns, footprint, and the parent extent recomputed (it may shrink)', async () => {
    const timeline = new Timeline(db);
    const collection = collectionCreated({ title: 'Metadata changes' });
    const item = itemRegistered({
      title: 'Moving scene',
      parentId: collection.data.id,
      metadata: { bbox: [10, 20, 11, 21], datetime: '2024-05-01T00:00:00.000Z' },
    });
    timeline.add(collection, item);
    await timeline.applyNew();
    const metadata = {
      ...item.data.metadata,
      bbox: [0, 0, 1, 1] as const,
      datetime: null,
      startDatetime: '2023-01-01T00:00:00.000Z',
      endDatetime: '2023-02-01T00:00:00.000Z',
      tags: ['moved'],
      properties: { 'eo:cloud_cover': 7, flag: false },
    };
    timeline.add(
      updated({
        id: item.data.id,
        kind: 'item',
        changes: { metadata },
        previous: { metadata: item.data.metadata },
      }),
    );
    await timeline.applyNew();
    expect(await row(item.data.id)).toMatchObject({
      bbox: [0, 0, 1, 1],
      datetime: null,
      tags: ['moved'],
      properties: { 'eo:cloud_cover': 7, flag: false },
      version: '1',
    });
    expect(await db.footprint(item.data.id)).toMatch(/POLYGON\(\(0 0/);
    const parent = await row(collection.data.id);
    expect(parent.items_bbox).toEqual([0, 0, 1, 1]);
    expect(iso(parent.items_start)).toBe('2023-01-01T00:00:00.000Z');
    expect(iso(parent.items_end)).toBe('2023-02-01T00:00:00.000Z');
    await timeline.expectReplaySafe([collection.data.id, item.data.id]);
  });
});
