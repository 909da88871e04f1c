import { randomUUID } from 'node:crypto';
import type { PortalObjectEvent, RecordedEvent } from '@portal/domain';
import type { PoolClient } from '@portal/platform';
import { applyLeafMovesInRun, applyMove } from '@portal/read-model-portal-objects';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemRegistered, itemUploadStarted } from '../../support/item-events.js';
import { LeafMoveTree, moveCandidateRows, type LeafMove } from '../../support/leaf-move-tree.js';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  metadata,
  moved,
  RecordedEventLog,
  shared,
  streamOf,
} from '../../support/portal-events.js';
import { readModelInconsistencies } from '../../support/read-model-consistency.js';
import { dumpReadSchema, resetReadSchema } from '../../support/read-schema-dump.js';
import { useReadSchemas } from '../../support/read-schemas.js';

/**
 * The leaf moves of a run in one statement (run-moves.ts) must leave exactly the rows `applyMove` leaves
 * applying them one by one, in order: every table, row for row (the inventory totals too). `schema` takes
 * them one by one, `replica` as the run's set.
 */
const db = useReadSchemas('leaf-moves-run');
/** Random trees tried (about a second each); a long run sets more. */
const trees = Number(process.env.LEAF_MOVES_TREES ?? 30);

async function inTransaction(schema: string, work: (client: PoolClient) => Promise<void>): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL search_path TO "${schema}", public`);
    await work(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

const oneByOne = (moves: readonly LeafMove[]): Promise<void> =>
  inTransaction(db.schema, async (client) => {
    for (const [event, recorded] of moves) await applyMove(client, event, recorded);
  });

const asRun = (moves: readonly LeafMove[]): Promise<void> =>
  inTransaction(db.replica, (client) => applyLeafMovesInRun(client, moves));

/** Both schemas from nothing to the same tree. */
async function setUp(events: readonly RecordedEvent[]): Promise<void> {
  for (const schema of [db.schema, db.replica]) {
    await resetReadSchema(db.pool, schema);
    await db.apply(events, schema);
  }
}

/** Applies the moves both ways and expects the same rows in every table; answers the replica's dump. */
async function expectSameRows(moves: readonly LeafMove[]): Promise<Record<string, unknown[]>> {
  await oneByOne(moves);
  await asRun(moves);
  const expected = await dumpReadSchema(db.pool, db.schema);
  const actual = await dumpReadSchema(db.pool, db.replica);
  expect(actual).toEqual(expected);
  expect(await readModelInconsistencies(db.pool, db.replica)).toEqual([]);
  return actual;
}

/** A test's events in store order, each a second after the previous. */
class Events {
  private readonly log = new RecordedEventLog();
  private clock = Date.parse('2025-05-01T00:00:00.000Z');

  record(event: PortalObjectEvent): RecordedEvent {
    this.clock += 1000;
    return this.log.record(
      event,
      streamOf(event),
      metadata({ occurredAt: new Date(this.clock).toISOString() }),
    );
  }

  all(events: readonly PortalObjectEvent[]): RecordedEvent[] {
    return events.map((event) => this.record(event));
  }

  move(
    id: string,
    kind: 'catalog' | 'collection' | 'item',
    from: string | null,
    to: string | null,
  ): LeafMove {
    const event = moved({ id, kind, fromParentId: from, toParentId: to });
    return [event, this.record(event)];
  }
}

interface Row {
  id: string;
  parent_id: string | null;
  slug: string;
  depth: number;
  child_count: number;
  version: string;
  deleted_at: string | null;
  items_bbox: number[] | null;
  items_start: string | null;
  items_end: string | null;
  read_principals: string[];
}

const rowIn = (dump: Record<string, unknown[]>, id: string): Row => {
  const found = (dump.portal_objects as Row[]).find((row) => row.id === id);
  if (!found) throw new Error(`no row ${id}`);
  return found;
};

/** What the generated moves exercised, counted over the whole property run. */
interface Situations {
  sharedOldParent: number;
  sharedNewParent: number;
  /** A parent one move leaves and another joins. */
  leftAndJoined: number;
  withinParent: number;
  toRoot: number;
  buried: number;
  readyItem: number;
  tombstone: number;
  replayed: number;
  slugTaken: number;
}

interface MovedRow {
  id: string;
  kind: string;
  status: string;
  parent_id: string | null;
  slug: string;
  version: string;
  deleted: boolean;
}

async function movedRows(schema: string, ids: readonly string[]): Promise<Map<string, MovedRow>> {
  const result = await db.pool.query<MovedRow>(
    `SELECT id, kind, status, parent_id, slug, version, deleted_at IS NOT NULL AS deleted
       FROM "${schema}".portal_objects WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(result.rows.map((row) => [row.id, row]));
}

function count(
  situations: Situations,
  moves: readonly LeafMove[],
  before: Map<string, MovedRow>,
  after: Map<string, MovedRow>,
): void {
  const oldParents = new Map<string, number>();
  const newParents = new Map<string, number>();
  for (const [event, recorded] of moves) {
    const was = before.get(event.data.id);
    const is = after.get(event.data.id);
    if (!was || !is) throw new Error(`no row ${event.data.id}`);
    if (BigInt(was.version) >= recorded.revision) {
      situations.replayed += 1;
      continue;
    }
    const { toParentId } = event.data;
    if (was.parent_id !== null) oldParents.set(was.parent_id, (oldParents.get(was.parent_id) ?? 0) + 1);
    if (toParentId !== null) newParents.set(toParentId, (newParents.get(toParentId) ?? 0) + 1);
    if (toParentId === null) situations.toRoot += 1;
    else if (toParentId === was.parent_id) situations.withinParent += 1;
    if (was.deleted) situations.tombstone += 1;
    else if (is.deleted) situations.buried += 1;
    if (was.kind === 'item' && was.status === 'ready' && !was.deleted) situations.readyItem += 1;
    if (is.slug !== was.slug) situations.slugTaken += 1;
  }
  situations.sharedOldParent += [...oldParents.values()].filter((n) => n > 1).length;
  situations.sharedNewParent += [...newParents.values()].filter((n) => n > 1).length;
  situations.leftAndJoined += moves.filter(
    ([event]) =>
      event.data.toParentId !== null &&
      moves.some(
        ([other]) => other !== event && before.get(other.data.id)?.parent_id === event.data.toParentId,
      ),
  ).length;
}

describe('the leaf moves of a run in one statement', () => {
  it(
    'leave the rows of applyMove one by one, over random trees and random sets of leaf moves',
    async () => {
      const situations: Situations = {
        sharedOldParent: 0,
        sharedNewParent: 0,
        leftAndJoined: 0,
        withinParent: 0,
        toRoot: 0,
        buried: 0,
        readyItem: 0,
        tombstone: 0,
        replayed: 0,
        slugTaken: 0,
      };
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
            size: fc.integer({ min: 5, max: 60 }),
            moves: fc.integer({ min: 1, max: 20 }),
          }),
          async ({ seed, size, moves: count_ }) => {
            const tree = new LeafMoveTree(seed);
            await setUp(tree.setupEvents(size));
            expect(await dumpReadSchema(db.pool, db.replica)).toEqual(
              await dumpReadSchema(db.pool, db.schema),
            );
            const moves = tree.chooseMoves(await moveCandidateRows(db.pool, db.schema), count_);
            const ids = moves.map(([event]) => event.data.id);
            const before = await movedRows(db.schema, ids);
            await expectSameRows(moves);
            count(situations, moves, before, await movedRows(db.schema, ids));
          },
        ),
        { numRuns: trees },
      );
      // Each situation the statement must get right came up, so the comparison covered it.
      for (const [situation, times] of Object.entries(situations)) {
        expect(times, situation).toBeGreaterThan(0);
      }
    },
    Math.max(300_000, trees * 10_000),
  );

  it('combine the counts and extents of moves that share an old parent and a new parent', async () => {
    const events = new Events();
    const root = catalogCreated({ title: 'Root' });
    const from = collectionCreated({ title: 'From', parentId: root.data.id });
    const to = collectionCreated({ title: 'To', parentId: root.data.id });
    const west = itemRegistered({
      title: 'West',
      parentId: from.data.id,
      metadata: { bbox: [-40, 0, -30, 10], datetime: '2021-01-01T00:00:00.000Z' },
    });
    const east = itemRegistered({
      title: 'East',
      parentId: from.data.id,
      metadata: { bbox: [30, 0, 40, 10], datetime: '2023-01-01T00:00:00.000Z' },
    });
    const middle = itemRegistered({
      title: 'Middle',
      parentId: from.data.id,
      metadata: { bbox: [0, 0, 1, 1], datetime: '2022-01-01T00:00:00.000Z' },
    });
    const uploading = itemUploadStarted({
      title: 'Uploading',
      parentId: from.data.id,
      metadata: { bbox: [100, 0, 110, 10] },
    });
    const there = itemRegistered({
      title: 'There',
      parentId: to.data.id,
      metadata: { bbox: [5, 5, 6, 6], datetime: '2022-06-01T00:00:00.000Z' },
    });
    await setUp(events.all([root, from, to, west, east, middle, uploading, there]));

    const dump = await expectSameRows([
      events.move(west.data.id, 'item', from.data.id, to.data.id),
      events.move(east.data.id, 'item', from.data.id, to.data.id),
      events.move(uploading.data.id, 'item', from.data.id, to.data.id),
    ]);
    expect(rowIn(dump, from.data.id)).toMatchObject({ child_count: 1, items_bbox: [0, 0, 1, 1] });
    expect(rowIn(dump, from.data.id).items_start).toBe('2022-01-01T00:00:00+00:00');
    expect(rowIn(dump, to.data.id)).toMatchObject({ child_count: 4, items_bbox: [-40, 0, 40, 10] });
    expect([rowIn(dump, to.data.id).items_start, rowIn(dump, to.data.id).items_end]).toEqual([
      '2021-01-01T00:00:00+00:00',
      '2023-01-01T00:00:00+00:00',
    ]);
    expect(rowIn(dump, west.data.id)).toMatchObject({ parent_id: to.data.id, depth: 3, slug: 'west' });
  });

  it('leave a parent without extent when its last ready item leaves, and keep both when moves stay within a parent', async () => {
    const events = new Events();
    const from = collectionCreated({ title: 'From' });
    const stays = collectionCreated({ title: 'Stays' });
    const to = catalogCreated({ title: 'To' });
    const only = itemRegistered({ title: 'Only', parentId: from.data.id, metadata: { bbox: [1, 1, 2, 2] } });
    const inside = itemRegistered({
      title: 'Inside',
      parentId: stays.data.id,
      metadata: { bbox: [170, 1, -170, 2] },
    });
    const beside = itemRegistered({
      title: 'Beside',
      parentId: stays.data.id,
      metadata: { bbox: [3, 3, 4, 4] },
    });
    await setUp(events.all([from, stays, to, only, inside, beside]));

    const dump = await expectSameRows([
      events.move(only.data.id, 'item', from.data.id, to.data.id),
      events.move(inside.data.id, 'item', stays.data.id, stays.data.id),
    ]);
    expect(rowIn(dump, from.data.id)).toMatchObject({ child_count: 0, items_bbox: null, items_start: null });
    // The antimeridian item counts as every longitude, in the recompute and the widening alike.
    expect(rowIn(dump, stays.data.id)).toMatchObject({ child_count: 2, items_bbox: [-180, 1, 180, 4] });
    expect(rowIn(dump, to.data.id)).toMatchObject({ child_count: 1, items_bbox: [1, 1, 2, 2] });
  });

  it('move to root level, below a tombstone (buried), and a tombstone, with the counts event order gives', async () => {
    const events = new Events();
    const org = randomUUID();
    const access = { orgId: org, visibility: 'org' as const, createdBy: randomUUID() };
    const root = catalogCreated({ title: 'Root', ...access });
    const gone = collectionCreated({ title: 'Gone', parentId: root.data.id, ...access });
    const toRoot = collectionCreated({
      title: 'To root',
      parentId: root.data.id,
      ...access,
      visibility: 'private',
    });
    const toBury = itemRegistered({
      title: 'To bury',
      parentId: gone.data.id,
      ...access,
      metadata: { bbox: [1, 1, 2, 2] },
    });
    const buryMe = collectionCreated({ title: 'Bury me', parentId: root.data.id, ...access });
    const tomb = collectionCreated({ title: 'Tomb', parentId: root.data.id, ...access });
    const keeper = collectionCreated({ title: 'Keeper', parentId: root.data.id, ...access });
    await setUp(
      events.all([
        root,
        gone,
        toRoot,
        toBury,
        buryMe,
        tomb,
        keeper,
        deleted({ id: toBury.data.id, kind: 'item', recursive: false }),
        deleted({ id: gone.data.id, kind: 'collection', recursive: false }),
        deleted({ id: tomb.data.id, kind: 'collection', recursive: false }),
      ]),
    );

    const buryMove = events.move(buryMe.data.id, 'collection', root.data.id, gone.data.id);
    const dump = await expectSameRows([
      events.move(toRoot.data.id, 'collection', root.data.id, null),
      buryMove,
      events.move(tomb.data.id, 'collection', root.data.id, keeper.data.id),
    ]);
    expect(rowIn(dump, toRoot.data.id)).toMatchObject({ parent_id: null, depth: 1, deleted_at: null });
    expect(rowIn(dump, buryMe.data.id)).toMatchObject({ parent_id: gone.data.id, slug: 'bury-me', depth: 3 });
    expect(rowIn(dump, buryMe.data.id).deleted_at).toBe(
      buryMove[1].metadata.occurredAt.replace('.000Z', '+00:00'),
    );
    // Root lost two live children (to root level, below the tombstone); the tombstone moved counts nowhere.
    expect(rowIn(dump, root.data.id)).toMatchObject({ child_count: 1 });
    expect(rowIn(dump, keeper.data.id)).toMatchObject({ child_count: 0 });
    expect(rowIn(dump, gone.data.id)).toMatchObject({ child_count: 0 });
  });

  it('give a move whose slug a live sibling holds at its destination the first free candidate', async () => {
    const events = new Events();
    const from = catalogCreated({ title: 'From' });
    const to = catalogCreated({ title: 'To' });
    const holder = collectionCreated({ title: 'Alpha', parentId: to.data.id });
    const second = collectionCreated({ title: 'alpha', parentId: to.data.id });
    const mover = collectionCreated({ title: 'ALPHA!', parentId: from.data.id });
    const other = collectionCreated({ title: 'Beta', parentId: from.data.id });
    await setUp(events.all([from, to, holder, second, mover, other]));

    const dump = await expectSameRows([
      events.move(mover.data.id, 'collection', from.data.id, to.data.id),
      events.move(other.data.id, 'collection', from.data.id, to.data.id),
    ]);
    expect(rowIn(dump, mover.data.id)).toMatchObject({ parent_id: to.data.id, slug: 'alpha-3' });
    expect(rowIn(dump, other.data.id)).toMatchObject({ parent_id: to.data.id, slug: 'beta' });
    expect(rowIn(dump, to.data.id)).toMatchObject({ child_count: 4 });
    expect(rowIn(dump, from.data.id)).toMatchObject({ child_count: 0 });
  });

  it('inherit the access of the new parent along with their own facts', async () => {
    const events = new Events();
    const org = randomUUID();
    const user = randomUUID();
    const access = { orgId: org, visibility: 'public' as const, createdBy: user };
    const open = catalogCreated({ title: 'Open', ...access });
    const closed = catalogCreated({ title: 'Closed', ...access, visibility: 'private' });
    const sharedParent = catalogCreated({ title: 'Shared', ...access, visibility: 'org' });
    const plain = collectionCreated({ title: 'Plain', parentId: open.data.id, ...access });
    const ownShare = collectionCreated({ title: 'Own share', parentId: open.data.id, ...access });
    const privateOne = collectionCreated({
      title: 'Private',
      parentId: open.data.id,
      ...access,
      visibility: 'private',
    });
    await setUp(
      events.all([
        open,
        closed,
        sharedParent,
        plain,
        ownShare,
        privateOne,
        shared({
          id: sharedParent.data.id,
          kind: 'catalog',
          principal: { type: 'user', id: user },
          permission: 'editor',
          previous: null,
        }),
        shared({
          id: ownShare.data.id,
          kind: 'collection',
          principal: { type: 'organization', id: org },
          permission: 'viewer',
          previous: null,
        }),
        shared({
          id: privateOne.data.id,
          kind: 'collection',
          principal: { type: 'user', id: user },
          permission: 'viewer',
          previous: null,
        }),
      ]),
    );

    const dump = await expectSameRows([
      events.move(plain.data.id, 'collection', open.data.id, closed.data.id),
      events.move(ownShare.data.id, 'collection', open.data.id, sharedParent.data.id),
      events.move(privateOne.data.id, 'collection', open.data.id, sharedParent.data.id),
    ]);
    expect(rowIn(dump, plain.data.id).read_principals).not.toContain('public');
    expect(rowIn(dump, ownShare.data.id).read_principals).toContain(`user:${user}`);
  });

  it('change nothing when applied again, or for a move the row already has', async () => {
    const events = new Events();
    const from = collectionCreated({ title: 'From' });
    const to = collectionCreated({ title: 'To' });
    const item = itemRegistered({ title: 'Item', parentId: from.data.id, metadata: { bbox: [1, 1, 2, 2] } });
    const later = itemRegistered({
      title: 'Later',
      parentId: from.data.id,
      metadata: { bbox: [3, 3, 4, 4] },
    });
    await setUp(events.all([from, to, item, later]));
    const first = events.move(item.data.id, 'item', from.data.id, to.data.id);
    await expectSameRows([first]);
    const once = await dumpReadSchema(db.pool, db.replica);

    // Replayed, beside a move of the same revision as its row (already applied before).
    const [laterMove] = events.move(later.data.id, 'item', from.data.id, to.data.id);
    const stale: LeafMove = [laterMove, { ...first[1], streamId: streamOf(laterMove), revision: 0n }];
    await expectSameRows([first, stale]);
    expect(await dumpReadSchema(db.pool, db.replica)).toEqual(once);
  });

  it('throw on a missing row or a missing new parent, as applyMove does', async () => {
    const events = new Events();
    const from = catalogCreated({ title: 'From' });
    const leaf = collectionCreated({ title: 'Leaf', parentId: from.data.id });
    await setUp(events.all([from, leaf]));
    const unknown = catalogCreated({ title: 'Unknown' }).data.id;

    const missingRow = [events.move(unknown, 'catalog', null, from.data.id)];
    await expect(oneByOne(missingRow)).rejects.toThrow(`catalog ${unknown} is not in the read model`);
    await expect(asRun(missingRow)).rejects.toThrow(`catalog ${unknown} is not in the read model`);
    const missingParent = [events.move(leaf.data.id, 'collection', from.data.id, unknown)];
    await expect(oneByOne(missingParent)).rejects.toThrow(`parent ${unknown} of ${leaf.data.id}`);
    await expect(asRun(missingParent)).rejects.toThrow(`parent ${unknown} of ${leaf.data.id}`);
  });

  it('refuse a list that breaks what the run cutter guarantees, rather than write wrong rows', async () => {
    const events = new Events();
    const from = catalogCreated({ title: 'From' });
    const leaf = catalogCreated({ title: 'Leaf', parentId: from.data.id });
    const other = collectionCreated({ title: 'Other', parentId: from.data.id });
    const inner = collectionCreated({ title: 'Inner', parentId: other.data.id });
    await setUp(events.all([from, leaf, other, inner]));

    const twice = events.move(leaf.data.id, 'catalog', from.data.id, null);
    await expect(asRun([twice, twice])).rejects.toThrow('moves an object twice');
    // Moved, and the destination of another move.
    await expect(
      asRun([
        events.move(leaf.data.id, 'catalog', from.data.id, null),
        events.move(inner.data.id, 'collection', other.data.id, leaf.data.id),
      ]),
    ).rejects.toThrow('also a parent of its moves');
    // Not a leaf: a live child below it.
    const [notLeaf, recorded] = events.move(other.data.id, 'collection', from.data.id, null);
    await expect(asRun([[notLeaf, recorded]])).rejects.toThrow('has children');
    // Unless it was applied already: then nothing changes, whatever lies below the object now.
    await expect(asRun([[notLeaf, { ...recorded, revision: 0n }]])).resolves.toBeUndefined();
  });
});
