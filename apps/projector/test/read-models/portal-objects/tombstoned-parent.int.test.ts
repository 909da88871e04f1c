import type { PortalObjectEvent } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  moved,
  streamOf,
  toAppend,
} from '../../support/portal-events.js';
import { openFixture, startProjector, waitUntilCaughtUp } from '../../support/projector-fixture.js';
import { portalObjectRow } from '../../support/read-model-access.js';
import { useReadSchemas } from '../../support/read-schemas.js';
import { iso, Timeline } from '../../support/timeline.js';

// A create appends to the child's stream only, so it can be ordered after its parent's tombstone; the
// projector must then bury the child as if the delete had cascaded over it (README, "Late children").

const db = useReadSchemas('tombstoned-parent');
const row = (id: string) => db.row(id);

describe('portal_objects: objects created or moved below a tombstone', () => {
  it('buries a child created after its parent’s plain delete, and a grandchild below it', async () => {
    const timeline = new Timeline(db);
    const root = catalogCreated({ title: 'Late root' });
    const parent = catalogCreated({ title: 'Late parent', parentId: root.data.id });
    timeline.add(root);
    timeline.add(parent);
    const parentDeletedAt = timeline.add(deleted({ id: parent.data.id, kind: 'catalog', recursive: false }));
    await timeline.applyNew();
    const parentBefore = await row(parent.data.id);
    expect(iso(parentBefore.deleted_at)).toBe(parentDeletedAt);

    const child = catalogCreated({ title: 'Late child', parentId: parent.data.id });
    const twin = catalogCreated({ title: 'late child', parentId: parent.data.id });
    const grandchild = collectionCreated({ title: 'Late grandchild', parentId: child.data.id });
    const childAt = timeline.add(child);
    const twinAt = timeline.add(twin);
    const grandchildAt = timeline.add(grandchild);
    await timeline.applyNew();

    const childRow = await row(child.data.id);
    expect(childRow).toMatchObject({
      parent_id: parent.data.id,
      ancestor_ids: [root.data.id, parent.data.id],
      depth: 3,
      child_count: 0,
      version: '0',
      slug: 'late-child',
    });
    expect([iso(childRow.deleted_at), iso(childRow.created_at), iso(childRow.updated_at)]).toEqual([
      childAt,
      childAt,
      childAt,
    ]);
    // Tombstones are outside the live siblings' slug index: the twin is not pushed to `late-child-2`.
    const twinRow = await row(twin.data.id);
    expect([twinRow.slug, iso(twinRow.deleted_at)]).toEqual(['late-child', twinAt]);
    const grandchildRow = await row(grandchild.data.id);
    expect(grandchildRow).toMatchObject({
      ancestor_ids: [root.data.id, parent.data.id, child.data.id],
      depth: 4,
      version: '0',
    });
    expect(iso(grandchildRow.deleted_at)).toBe(grandchildAt);
    expect(await row(parent.data.id)).toEqual(parentBefore);
    expect(await row(root.data.id)).toMatchObject({ child_count: 0, deleted_at: null });

    await timeline.expectReplaySafe([root, parent, child, twin, grandchild].map((event) => event.data.id));
  });

  it('buries children created after a recursive delete, below the parent and below a buried descendant', async () => {
    const timeline = new Timeline(db);
    const root = catalogCreated({ title: 'Recursive root' });
    const parent = catalogCreated({ title: 'Recursive parent', parentId: root.data.id });
    const earlier = catalogCreated({ title: 'Earlier child', parentId: parent.data.id });
    timeline.add(root);
    timeline.add(parent);
    timeline.add(earlier);
    const deletedAt = timeline.add(deleted({ id: parent.data.id, kind: 'catalog', recursive: true }));
    await timeline.applyNew();
    const parentBefore = await row(parent.data.id);
    const earlierBefore = await row(earlier.data.id);
    expect([iso(parentBefore.deleted_at), iso(earlierBefore.deleted_at)]).toEqual([deletedAt, deletedAt]);

    const child = catalogCreated({ title: 'Late child', parentId: parent.data.id });
    const grandchild = collectionCreated({ title: 'Late grandchild', parentId: child.data.id });
    const belowEarlier = collectionCreated({ title: 'Below earlier', parentId: earlier.data.id });
    const childAt = timeline.add(child);
    const grandchildAt = timeline.add(grandchild);
    const belowEarlierAt = timeline.add(belowEarlier);
    await timeline.applyNew();

    expect(await row(child.data.id)).toMatchObject({
      ancestor_ids: [root.data.id, parent.data.id],
      child_count: 0,
    });
    expect(await row(grandchild.data.id)).toMatchObject({
      ancestor_ids: [root.data.id, parent.data.id, child.data.id],
      depth: 4,
    });
    const buried = await Promise.all([child, grandchild, belowEarlier].map((event) => row(event.data.id)));
    expect(buried.map((r) => iso(r.deleted_at))).toEqual([childAt, grandchildAt, belowEarlierAt]);
    expect(await row(parent.data.id)).toEqual(parentBefore);
    expect(await row(earlier.data.id)).toEqual(earlierBefore);
    expect(await row(root.data.id)).toMatchObject({ child_count: 0, deleted_at: null });

    await timeline.expectReplaySafe(
      [root, parent, earlier, child, grandchild, belowEarlier].map((event) => event.data.id),
    );
  });

  it('buries a subtree moved below a tombstone: the moved object, its live descendants, no counts, its slug kept', async () => {
    const timeline = new Timeline(db);
    const source = catalogCreated({ title: 'Move source' });
    const first = catalogCreated({ title: 'Mover', parentId: source.data.id });
    const mover = catalogCreated({ title: 'mover', parentId: source.data.id });
    const middle = catalogCreated({ title: 'Mover middle', parentId: mover.data.id });
    const leaf = collectionCreated({ title: 'Mover leaf', parentId: middle.data.id });
    const gone = collectionCreated({ title: 'Gone leaf', parentId: middle.data.id });
    const target = catalogCreated({ title: 'Move target' });
    for (const event of [source, first, mover, middle, leaf, gone, target]) timeline.add(event);
    const goneAt = timeline.add(deleted({ id: gone.data.id, kind: 'collection', recursive: false }));
    timeline.add(deleted({ id: target.data.id, kind: 'catalog', recursive: false }));
    await timeline.applyNew();
    expect((await row(mover.data.id)).slug).toBe('mover-2');
    expect((await row(source.data.id)).child_count).toBe(2);
    const targetBefore = await row(target.data.id);

    const movedAt = timeline.add(
      moved({ id: mover.data.id, kind: 'catalog', fromParentId: source.data.id, toParentId: target.data.id }),
    );
    await timeline.applyNew();

    const moverRow = await row(mover.data.id);
    expect(moverRow).toMatchObject({
      parent_id: target.data.id,
      ancestor_ids: [target.data.id],
      depth: 2,
      slug: 'mover-2',
      child_count: 0,
      version: '1',
    });
    expect([iso(moverRow.deleted_at), iso(moverRow.updated_at)]).toEqual([movedAt, movedAt]);
    expect(await row(middle.data.id)).toMatchObject({
      ancestor_ids: [target.data.id, mover.data.id],
      depth: 3,
      child_count: 0,
      version: '0',
    });
    expect(await row(leaf.data.id)).toMatchObject({
      ancestor_ids: [target.data.id, mover.data.id, middle.data.id],
      depth: 4,
    });
    const descendants = await Promise.all([middle, leaf, gone].map((event) => row(event.data.id)));
    expect(descendants.map((r) => iso(r.deleted_at))).toEqual([movedAt, movedAt, goneAt]);
    expect(await row(source.data.id)).toMatchObject({ child_count: 1, deleted_at: null });
    expect(await row(target.data.id)).toEqual(targetBefore);

    await timeline.expectReplaySafe(
      [source, first, mover, middle, leaf, gone, target].map((event) => event.data.id),
    );
  });

  it('a plain delete buries children created in a race with it, and whatever lands below them later', async () => {
    // A plain delete decided on a stale child count of 0 may meet children in the read model: they were
    // created in a race with it, the command side answers 404 below the tombstone, so they are buried too.
    const timeline = new Timeline(db);
    const ancestor = catalogCreated({ title: 'Stale ancestor' });
    const parent = catalogCreated({ title: 'Stale parent', parentId: ancestor.data.id });
    const live = collectionCreated({ title: 'Alpha', parentId: parent.data.id });
    const outside = catalogCreated({ title: 'Outside' });
    const wanderer = catalogCreated({ title: 'alpha', parentId: outside.data.id });
    for (const event of [ancestor, parent, live, outside, wanderer]) timeline.add(event);
    const deletedAt = timeline.add(deleted({ id: ancestor.data.id, kind: 'catalog', recursive: false }));
    await timeline.applyNew();
    const parentBefore = await row(parent.data.id);
    expect([iso(parentBefore.deleted_at), parentBefore.child_count]).toEqual([deletedAt, 0]);

    const late = collectionCreated({ title: 'ALPHA', parentId: parent.data.id });
    const lateAt = timeline.add(late);
    const movedAt = timeline.add(
      moved({
        id: wanderer.data.id,
        kind: 'catalog',
        fromParentId: outside.data.id,
        toParentId: parent.data.id,
      }),
    );
    await timeline.applyNew();

    const lateRow = await row(late.data.id);
    expect([lateRow.slug, iso(lateRow.deleted_at)]).toEqual(['alpha', lateAt]);
    const wandererRow = await row(wanderer.data.id);
    expect([wandererRow.slug, iso(wandererRow.deleted_at), wandererRow.parent_id]).toEqual([
      'alpha',
      movedAt,
      parent.data.id,
    ]);
    const liveRow = await row(live.data.id);
    expect([liveRow.slug, iso(liveRow.deleted_at)]).toEqual(['alpha', deletedAt]);
    expect(await row(parent.data.id)).toEqual(parentBefore);
    expect((await row(outside.data.id)).child_count).toBe(0);

    await timeline.expectReplaySafe(
      [ancestor, parent, live, outside, wanderer, late].map((event) => event.data.id),
    );
  });

  it('buries a late child appended to the store and projected by the running projector', async () => {
    const fixture = await openFixture('tombstoned-parent');
    try {
      const parent = catalogCreated({ title: 'Store parent' });
      const child = catalogCreated({ title: 'Store child', parentId: parent.data.id });
      const grandchild = collectionCreated({ title: 'Store grandchild', parentId: child.data.id });
      const append = (event: PortalObjectEvent, expectedRevision: 'no_stream' | bigint) =>
        fixture.store.append(streamOf(event), [toAppend(event)], { expectedRevision });
      await append(parent, 'no_stream');
      await append(deleted({ id: parent.data.id, kind: 'catalog', recursive: false }), 0n);
      await append(child, 'no_stream');
      await append(grandchild, 'no_stream');

      const projector = startProjector(fixture);
      try {
        await waitUntilCaughtUp(fixture);
      } finally {
        await projector.stop();
      }
      const rows = await Promise.all(
        [parent, child, grandchild].map((event) =>
          portalObjectRow(fixture.pool, fixture.readSchema, event.data.id),
        ),
      );
      expect(rows.map((r) => [r.deleted_at !== null, r.child_count])).toEqual([
        [true, 0],
        [true, 0],
        [true, 0],
      ]);
    } finally {
      await fixture.close();
    }
  });
});
