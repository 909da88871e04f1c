import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { dumpReadModel } from '../../support/dump.js';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  metadata,
  moved,
  RecordedEventLog,
  streamOf,
  updated,
} from '../../support/portal-events.js';
import { readModelInconsistencies } from '../../support/read-model-consistency.js';
import { useReadSchemas } from '../../support/read-schemas.js';
import { PortalScenario } from '../../support/scenario.js';

const db = useReadSchemas('portal-objects');
const { schema } = db;
const apply = (events: readonly RecordedEvent[]) => db.apply(events);
const row = (id: string) => db.row(id);

const log = new RecordedEventLog();
type Created = ReturnType<typeof catalogCreated> | ReturnType<typeof collectionCreated>;
const record = (event: Created | Parameters<typeof streamOf>[0], at = '2025-01-01T00:00:00.000Z') =>
  log.record(event, streamOf(event), metadata({ occurredAt: at }));

describe('portal_objects read model', () => {
  it('projects a root catalog and a collection below it with their place in the tree', async () => {
    const orgId = randomUUID();
    const catalog = catalogCreated({ title: 'Land Cover', description: 'all of it', orgId });
    const collection = collectionCreated({
      title: 'Sentinel 2 — L2A',
      orgId,
      parentId: catalog.data.id,
      license: 'CC-BY-4.0',
      keywords: ['s2'],
      links: [
        {
          title: 'home',
          href: 'https://x.example',
          rel: 'about',
          type: 'text/html',
          targetType: 'url',
          linkJson: {},
        },
      ],
    });
    await apply([
      // The organization is the event's own (the parent's), never the metadata's (the caller's active one).
      log.record(catalog, streamOf(catalog), metadata({ occurredAt: '2025-02-01T10:00:00.000Z' })),
      log.record(collection, streamOf(collection), metadata({ occurredAt: '2025-02-01T10:00:01.000Z' })),
    ]);

    const parent = await row(catalog.data.id);
    expect(parent).toMatchObject({
      kind: 'catalog',
      status: 'ready',
      title: 'Land Cover',
      description: 'all of it',
      parent_id: null,
      org_id: orgId,
      slug: 'land-cover',
      ancestor_ids: [],
      depth: 1,
      child_count: 1,
      license: null,
      version: '0',
      deleted_at: null,
    });
    expect(parent.created_at.toISOString()).toBe('2025-02-01T10:00:00.000Z');
    const child = await row(collection.data.id);
    expect(child).toMatchObject({
      kind: 'collection',
      status: 'ready',
      org_id: orgId,
      slug: 'sentinel-2-l2a',
      parent_id: catalog.data.id,
      ancestor_ids: [catalog.data.id],
      depth: 2,
      license: 'CC-BY-4.0',
      keywords: ['s2'],
      extent: null,
    });
    expect(child.links).toEqual(collection.data.links);
  });

  it('keeps slugs unique among live siblings, and frees a slug when its holder is deleted', async () => {
    const parent = catalogCreated({ title: 'Slug parent' });
    const [a, b, c] = ['Alpha', 'alpha', 'ALPHA!'].map((title) =>
      catalogCreated({ title, parentId: parent.data.id }),
    );
    const elsewhere = catalogCreated({ title: 'Alpha' });
    if (!a || !b || !c) throw new Error('three siblings');
    await apply([parent, a, b, c, elsewhere].map((event) => record(event)));
    expect([(await row(a.data.id)).slug, (await row(b.data.id)).slug, (await row(c.data.id)).slug]).toEqual([
      'alpha',
      'alpha-2',
      'alpha-3',
    ]);
    expect((await row(elsewhere.data.id)).slug).toBe('alpha');

    const again = catalogCreated({ title: 'alpha', parentId: parent.data.id });
    await apply([record(deleted({ id: a.data.id, kind: 'catalog', recursive: false })), record(again)]);
    expect((await row(again.data.id)).slug).toBe('alpha');
  });

  it('re-derives the slug on a title change but keeps it when the title still slugs the same', async () => {
    const parent = catalogCreated({ title: 'Rename parent' });
    const first = collectionCreated({ title: 'Roads', parentId: parent.data.id });
    const second = collectionCreated({ title: 'roads', parentId: parent.data.id });
    await apply([parent, first, second].map((event) => record(event)));
    expect((await row(second.data.id)).slug).toBe('roads-2');

    const id = second.data.id;
    await apply([
      record(updated({ id, kind: 'collection', changes: { title: 'ROADS' }, previous: { title: 'roads' } })),
    ]);
    expect(await row(id)).toMatchObject({ title: 'ROADS', slug: 'roads-2', version: '1' });

    await apply([
      record(
        updated({
          id,
          kind: 'collection',
          changes: { title: 'Rivers', license: 'MIT', keywords: ['water'], description: 'wet' },
          previous: { title: 'ROADS', license: 'other', keywords: [], description: '' },
        }),
        '2025-03-01T00:00:00.000Z',
      ),
    ]);
    const after = await row(id);
    expect(after).toMatchObject({
      title: 'Rivers',
      slug: 'rivers',
      license: 'MIT',
      keywords: ['water'],
      description: 'wet',
    });
    expect(after.version).toBe('2');
    expect(after.updated_at.toISOString()).toBe('2025-03-01T00:00:00.000Z');
  });

  it('moves a whole subtree: ancestor paths, depths, child counts and a slug re-checked in the new parent', async () => {
    const a = catalogCreated({ title: 'Move A' });
    const b = catalogCreated({ title: 'Twin', parentId: a.data.id });
    const c = catalogCreated({ title: 'Move C', parentId: b.data.id });
    const d = collectionCreated({ title: 'Move D', parentId: c.data.id });
    const e = catalogCreated({ title: 'Move E' });
    const twin = catalogCreated({ title: 'twin', parentId: e.data.id });
    await apply([a, b, c, d, e, twin].map((event) => record(event)));

    await apply([
      record(moved({ id: b.data.id, kind: 'catalog', fromParentId: a.data.id, toParentId: e.data.id })),
    ]);
    expect(await row(b.data.id)).toMatchObject({
      parent_id: e.data.id,
      ancestor_ids: [e.data.id],
      depth: 2,
      slug: 'twin-2',
    });
    expect(await row(c.data.id)).toMatchObject({ ancestor_ids: [e.data.id, b.data.id], depth: 3 });
    expect(await row(d.data.id)).toMatchObject({ ancestor_ids: [e.data.id, b.data.id, c.data.id], depth: 4 });
    expect((await row(a.data.id)).child_count).toBe(0);
    expect((await row(e.data.id)).child_count).toBe(2);

    await apply([
      record(moved({ id: b.data.id, kind: 'catalog', fromParentId: e.data.id, toParentId: null })),
    ]);
    expect(await row(b.data.id)).toMatchObject({
      parent_id: null,
      ancestor_ids: [],
      depth: 1,
      slug: 'twin-2',
    });
    expect(await row(d.data.id)).toMatchObject({ ancestor_ids: [b.data.id, c.data.id], depth: 3 });
    expect((await row(e.data.id)).child_count).toBe(1);
  });

  it('tombstones every descendant on a recursive delete, and only the object on a plain one', async () => {
    const a = catalogCreated({ title: 'Delete A' });
    const b = catalogCreated({ title: 'Delete B', parentId: a.data.id });
    const c = collectionCreated({ title: 'Delete C', parentId: b.data.id });
    const d = catalogCreated({ title: 'Delete D', parentId: a.data.id });
    await apply([a, b, c, d].map((event) => record(event)));

    const at = '2025-04-01T00:00:00.000Z';
    await apply([record(deleted({ id: b.data.id, kind: 'catalog', recursive: true }), at)]);
    expect((await row(b.data.id)).deleted_at?.toISOString()).toBe(at);
    expect((await row(c.data.id)).deleted_at?.toISOString()).toBe(at);
    expect((await row(c.data.id)).version).toBe('0');
    expect(await row(d.data.id)).toMatchObject({ deleted_at: null });
    expect((await row(a.data.id)).child_count).toBe(1);

    await apply([record(deleted({ id: d.data.id, kind: 'catalog', recursive: false }))]);
    expect((await row(a.data.id)).child_count).toBe(0);
  });

  it('ignores event types it does not follow, but fails on an object it never saw', async () => {
    const before = await dumpReadModel(db.pool, schema);
    await apply([
      log.record({ type: 'NewsletterSent', data: { id: randomUUID() } }, `newsletter-${randomUUID()}`),
    ]);
    expect(await dumpReadModel(db.pool, schema)).toEqual(before);

    const ghost = updated({
      id: randomUUID(),
      kind: 'catalog',
      changes: { title: 'x' },
      previous: { title: 'y' },
    });
    await expect(apply([record(ghost)])).rejects.toThrow(/catalog .* is not in the read model/);
    // Items are projected now: a missing item row is as broken as a missing catalog.
    await expect(
      apply([record(deleted({ id: randomUUID(), kind: 'item', recursive: false }))]),
    ).rejects.toThrow(/item .* is not in the read model/);
    const abort = { type: 'UploadAborted', data: { id: randomUUID(), uploadId: 'u' } } as const;
    await expect(apply([log.record(abort, `item-${abort.data.id}`)])).rejects.toThrow(
      /item .* is not in the read model/,
    );
  });

  it('changes nothing when the same events are applied again (replayed whole, and in overlapping halves)', async () => {
    const scenario = new PortalScenario(20250101, { items: true });
    const replayLog = new RecordedEventLog();
    const events = Array.from({ length: 600 }, () => {
      const planned = scenario.plan();
      return replayLog.record(planned.event, planned.streamId, planned.event.metadata);
    });
    await apply(events);
    const once = await dumpReadModel(db.pool, schema);

    await apply(events);

    await apply(events);
    expect(await dumpReadModel(db.pool, schema)).toEqual(once);
    await apply(events.slice(100, 300));
    await apply(events.slice(250));
    expect(await dumpReadModel(db.pool, schema)).toEqual(once);
    // The scenario really exercised the handlers: moves, tombstones, suffixed slugs, every upload ending.
    const stats = await db.pool.query<{
      deleted: string;
      suffixed: string;
      deep: string;
      statuses: string[];
      extents: string;
    }>(
      `SELECT count(*) FILTER (WHERE deleted_at IS NOT NULL) AS deleted,
              count(*) FILTER (WHERE slug ~ '-[0-9]+$') AS suffixed,
              count(*) FILTER (WHERE depth > 2) AS deep,
              array_agg(DISTINCT status ORDER BY status) AS statuses,
              count(*) FILTER (WHERE items_bbox IS NOT NULL AND deleted_at IS NULL) AS extents
         FROM "${schema}".portal_objects`,
    );
    const counts = stats.rows[0];
    expect(Number(counts?.deleted)).toBeGreaterThan(0);
    expect(Number(counts?.suffixed)).toBeGreaterThan(0);
    expect(Number(counts?.deep)).toBeGreaterThan(0);
    expect(Number(counts?.extents)).toBeGreaterThan(0);
    expect(counts?.statuses).toEqual(['aborted', 'expired', 'failed', 'processing', 'ready', 'uploading']);
    expect(once.assets.length).toBeGreaterThan(0);
    // Incremental bookkeeping agrees with a recount: live children per parent, depth per path, extents.
    expect(await readModelInconsistencies(db.pool, schema)).toEqual([]);
  });
});
