import { randomUUID } from 'node:crypto';
import {
  slugify,
  type ItemMetadata,
  type PortalKind,
  type PortalObjectDeleted,
  type PortalObjectUpdated,
  type RecordedEvent,
} from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import {
  applyLeafDeletesInRun,
  applyRenamesInRun,
  portalObjectsReadModel,
} from '@portal/read-model-portal-objects';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlugFamilies } from '../../../src/sets/slug-families.js';
import { itemRegistered, itemUploadStarted } from '../../support/item-events.js';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  metadata,
  RecordedEventLog,
  streamOf,
  updated,
} from '../../support/portal-events.js';
import { dumpReadSchema, resetReadSchema } from '../../support/read-schema-dump.js';
import { useReadSchemas } from '../../support/read-schemas.js';

/**
 * A run's renames and leaf deletes applied as sets (run-renames.ts, run-deletes.ts) must leave the rows
 * the single handlers leave applying the same events one by one in event order: random trees, random
 * runs that keep the preconditions the run cutter guarantees, one schema each way, every table compared.
 */
const db = useReadSchemas('run-renames-deletes');
const oneByOne = db.schema;
const asSets = db.replica;
const log = new RecordedEventLog();
const runs = Number(process.env.RUN_SETS_HISTORIES ?? 40);

/** Runs `work` in one transaction on `schema`, then the read model's end of batch (the STAC texts). */
async function inSchema(schema: string, work: (sql: Sql) => Promise<void>): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL search_path TO "${schema}", public`);
    await work(client);
    await portalObjectsReadModel.finishBatch?.(client, { log: db.logger });
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

async function eachAlone(schema: string, events: readonly RecordedEvent[]): Promise<void> {
  await inSchema(schema, async (sql) => {
    for (const event of events) await portalObjectsReadModel.apply(sql, event, { log: db.logger });
  });
}

type Rename = readonly [PortalObjectUpdated, RecordedEvent];
type Delete = readonly [PortalObjectDeleted, RecordedEvent];

async function asRun(
  schema: string,
  renames: readonly Rename[],
  deletes: readonly Delete[],
  deletesFirst = false,
): Promise<void> {
  await inSchema(schema, async (sql) => {
    if (deletesFirst) await applyLeafDeletesInRun(sql, deletes);
    await applyRenamesInRun(sql, renames);
    if (!deletesFirst) await applyLeafDeletesInRun(sql, deletes);
  });
}

let clock = 0;
/** Each event a later time, so a row's `updated_at` tells which event wrote it. */
function record(event: Parameters<typeof streamOf>[0]): RecordedEvent {
  clock += 1;
  const occurredAt = new Date(Date.UTC(2025, 0, 1) + clock * 1000).toISOString();
  return log.record(event, streamOf(event), metadata({ occurredAt }));
}

/** Titles that collide: `alpha` twice, `alpha-2` and `alpha-3` in alpha's family, `beta-10` in beta's. */
const titles = [
  'Alpha',
  'alpha',
  'Alpha 2',
  'Alpha-3',
  'Beta',
  'Beta 10',
  'Gamma',
  'Delta',
  'Epsilon',
] as const;
const CROWD = 'Crowd';
const LONER = 'Loner';

const node = fc.record({
  kind: fc.constantFrom('catalog', 'collection', 'collection', 'item', 'item', 'item', 'item', 'item'),
  parent: fc.nat(),
  title: fc.constantFrom(...titles),
  /** Two organizations, and none (objects from before identity: siblings at root level all the same). */
  org: fc.nat(2),
  ready: fc.boolean(),
  west: fc.integer({ min: -180, max: 170 }),
  south: fc.integer({ min: -90, max: 80 }),
  width: fc.integer({ min: 1, max: 60 }),
  day: fc.integer({ min: 0, max: 700 }),
});
type Node = typeof node extends fc.Arbitrary<infer T> ? T : never;

const metadataChange = fc.record({
  west: fc.integer({ min: -180, max: 170 }),
  south: fc.integer({ min: -90, max: 80 }),
  width: fc.integer({ min: 1, max: 60 }),
  day: fc.integer({ min: 0, max: 700 }),
  noBox: fc.boolean(),
});

const operation = fc.record({
  // Unbiased: a small index would pick the first objects, the tree's top, again and again.
  target: fc.noBias(fc.nat()),
  delete: fc.boolean(),
  title: fc.oneof(
    { arbitrary: fc.constantFrom(...titles), weight: 3 },
    { arbitrary: fc.constant('same base'), weight: 2 },
    { arbitrary: fc.constant(CROWD), weight: 2 },
  ),
  /** Now and then one of the crowd's loners, which a rename to `Crowd` takes past the 16 candidates. */
  loner: fc.nat(3),
  description: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
  keywords: fc.option(fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }), { nil: undefined }),
  metadata: fc.option(metadataChange, { nil: undefined }),
  early: fc.integer({ min: 0, max: 4 }),
});

const history = fc.record({
  nodes: fc.array(node, { minLength: 5, maxLength: 40 }),
  crowd: fc.boolean(),
  tombstones: fc.array(fc.noBias(fc.nat()), { maxLength: 6 }),
  operations: fc.array(operation, { minLength: 1, maxLength: 30 }),
  deletesFirst: fc.boolean(),
});

const box = { west: 10, south: 10, width: 5, day: 3 };

function itemMetadata(box: { west: number; south: number; width: number; day: number }): ItemMetadata {
  return {
    geometry: null,
    bbox: [box.west, box.south, box.west + box.width, box.south + 10],
    datetime: new Date(Date.UTC(2024, 0, 1) + box.day * 86_400_000).toISOString(),
    startDatetime: null,
    endDatetime: null,
    tags: [],
    properties: null,
  };
}

/** The creates of a random tree: items below collections only, a crowd of 17 `Crowd`s when asked. */
function treeEvents(nodes: readonly Node[], crowd: boolean): Parameters<typeof streamOf>[0][] {
  const orgs = [randomUUID(), randomUUID()] as const;
  const containers: { id: string; kind: PortalKind; orgId: string | null }[] = [];
  const events: Parameters<typeof streamOf>[0][] = [];
  for (const spec of nodes) {
    const collections = containers.filter((container) => container.kind === 'collection');
    if (spec.kind === 'item' && collections.length > 0) {
      const parent = collections[spec.parent % collections.length];
      if (!parent) continue;
      const data = {
        title: spec.title,
        parentId: parent.id,
        orgId: parent.orgId,
        metadata: itemMetadata(spec),
      };
      events.push(spec.ready ? itemRegistered(data) : itemUploadStarted(data));
      continue;
    }
    const slot = spec.parent % (containers.length + 1);
    const parent = containers[slot];
    const orgId = parent ? parent.orgId : spec.org === 2 ? null : spec.org === 0 ? orgs[0] : orgs[1];
    const data = { title: spec.title, parentId: parent?.id ?? null, orgId };
    const event = spec.kind === 'catalog' ? catalogCreated(data) : collectionCreated(data);
    containers.push({
      id: event.data.id,
      kind: event.type === 'CatalogCreated' ? 'catalog' : 'collection',
      orgId,
    });
    events.push(event);
  }
  if (crowd) {
    const parent = collectionCreated({ title: 'Crowd parent', orgId: orgs[0] });
    events.push(parent);
    for (let n = 0; n < 17; n++)
      events.push(collectionCreated({ title: CROWD, parentId: parent.data.id, orgId: orgs[0] }));
    for (let n = 0; n < 3; n++)
      events.push(collectionCreated({ title: LONER, parentId: parent.data.id, orgId: orgs[0] }));
  }
  return events;
}

interface ObjectState {
  id: string;
  kind: PortalKind;
  title: string;
  slug: string;
  group: string;
  status: string;
  parent_id: string | null;
  leaf: boolean;
}

/** The live objects of the schema (with what a run's preconditions need of them), in a fixed order. */
async function liveObjects(schema: string): Promise<ObjectState[]> {
  const result = await db.pool.query<ObjectState>(
    `SELECT o.id, o.kind, o.title, o.slug, COALESCE(o.parent_id, o.org_id, '00000000-0000-0000-0000-000000000000')::text AS group, o.status, o.parent_id,
            NOT EXISTS (SELECT 1 FROM "${schema}".portal_objects d WHERE d.ancestor_ids @> ARRAY[o.id]) AS leaf
       FROM "${schema}".portal_objects o WHERE o.deleted_at IS NULL ORDER BY o.created_at, o.id`,
  );
  return result.rows;
}

interface PlannedRun {
  readonly events: RecordedEvent[];
  readonly renames: Rename[];
  readonly deletes: Delete[];
  /** Events of the run applied before it (both ways alike): the run must then change nothing of them. */
  readonly early: RecordedEvent[];
}

/**
 * A run as the cutter would allow it: one event per object; among one sibling group, no two events
 * taking or freeing slugs of one family (a rename takes its title's base and frees its slug, a delete
 * frees its slug); deletes of leaves only.
 */
function planRun(
  objects: readonly ObjectState[],
  operations: readonly (typeof operation extends fc.Arbitrary<infer T> ? T : never)[],
): PlannedRun {
  const used = new Set<string>();
  const families = new Map<string, SlugFamilies>();
  const run: PlannedRun = { events: [], renames: [], deletes: [], early: [] };
  const loners = objects.filter((object) => object.title === LONER);
  // Deletes mostly of ready items: below a shared parent they must combine the extent they leave.
  const leaves = objects.filter((object) => object.leaf);
  const readyItems = leaves.filter((object) => object.kind === 'item' && object.status === 'ready');
  // A loner's rename first, before another event of its group takes the crowd's family.
  const lonerFirst = (op: (typeof operations)[number]): number => (!op.delete && op.loner === 0 ? 0 : 1);
  for (const op of [...operations].sort((a, b) => lonerFirst(a) - lonerFirst(b))) {
    const loner = !op.delete && op.loner === 0 && loners.length > 0;
    const pool = loner
      ? loners
      : op.delete
        ? op.loner < 3 && readyItems.length > 0
          ? readyItems
          : leaves
        : objects;
    const target = pool[op.target % pool.length];
    if (!target || used.has(target.id)) continue;
    const title = loner ? CROWD : op.title === 'same base' ? `${target.title}.` : op.title;
    const slugs = op.delete ? [target.slug] : [target.slug, slugify(title)];
    const family = families.get(target.group) ?? new SlugFamilies();
    if (slugs.some((slug) => family.clashes(slug))) continue;
    for (const slug of slugs) family.add(slug);
    families.set(target.group, family);
    used.add(target.id);
    const kind = target.kind;
    if (op.delete) {
      const event = deleted({ id: target.id, kind, recursive: false });
      const recorded = record(event);
      run.deletes.push([event, recorded]);
      run.events.push(recorded);
    } else {
      const changes: PortalObjectUpdated['data']['changes'] = {
        title,
        ...(op.description === undefined ? {} : { description: op.description }),
        ...(op.keywords === undefined || kind === 'item' ? {} : { keywords: op.keywords }),
        ...(op.metadata === undefined || kind !== 'item'
          ? {}
          : { metadata: { ...itemMetadata(op.metadata), ...(op.metadata.noBox ? { bbox: null } : {}) } }),
      };
      const event = updated({ id: target.id, kind, changes, previous: { title: target.title } });
      const recorded = record(event);
      run.renames.push([event, recorded]);
      run.events.push(recorded);
    }
    if (op.early === 0) run.early.push(run.events[run.events.length - 1] as RecordedEvent);
  }
  return run;
}

describe('a run’s renames and leaf deletes as sets', () => {
  it('leave the rows the single handlers leave, event by event, over random trees and runs', async () => {
    const seen = { fullWindow: 0, keptDerived: 0, sharedParentReadyDeletes: 0, metadataRenames: 0, early: 0 };
    await fc.assert(
      fc.asyncProperty(history, async (generated) => {
        for (const schema of [oneByOne, asSets]) await resetReadSchema(db.pool, schema);
        const tree = treeEvents(generated.nodes, generated.crowd).map(record);
        for (const schema of [oneByOne, asSets]) await db.apply(tree, schema);
        // Some tombstones among them: freed slugs, and rows below a parent that are no longer live (the
        // crowd kept whole, so a rename to its title finds the 16 candidates taken).
        const before = await liveObjects(oneByOne);
        const buried = [...new Set(generated.tombstones.map((n) => before[n % before.length]))]
          .filter((object): object is ObjectState => object?.leaf === true && object.title !== CROWD)
          .map((object) => record(deleted({ id: object.id, kind: object.kind, recursive: false })));
        for (const schema of [oneByOne, asSets]) await db.apply(buried, schema);

        const objects = await liveObjects(oneByOne);
        const run = planRun(objects, generated.operations);
        await eachAlone(oneByOne, run.early);
        await eachAlone(asSets, run.early);

        await eachAlone(oneByOne, run.events);
        await asRun(asSets, run.renames, run.deletes, generated.deletesFirst);
        expect(await dumpReadSchema(db.pool, asSets)).toEqual(await dumpReadSchema(db.pool, oneByOne));

        // What the runs reached, so the property is known to have met each case.
        const after = new Map((await liveObjects(oneByOne)).map((object) => [object.id, object]));
        for (const [event] of run.renames) {
          const slug = after.get(event.data.id)?.slug ?? '';
          const before = objects.find((object) => object.id === event.data.id);
          if (/-(1[7-9]|[2-9]\d)$/.test(slug) && slug !== before?.slug) seen.fullWindow += 1;
          if (slug === before?.slug && /-\d+$/.test(slug)) seen.keptDerived += 1;
          if (event.data.changes.metadata && before?.status === 'ready') seen.metadataRenames += 1;
        }
        const readyParents = run.deletes
          .map(([event]) => objects.find((object) => object.id === event.data.id))
          .filter((object) => object?.kind === 'item' && object.status === 'ready')
          .map((object) => object?.parent_id);
        if (new Set(readyParents).size < readyParents.length) seen.sharedParentReadyDeletes += 1;
        seen.early += run.early.length;
      }),
      { numRuns: runs },
    );
    for (const [what, count] of Object.entries(seen)) expect({ what, count }).not.toEqual({ what, count: 0 });
  }, 600_000);

  it('keep a current candidate whose plain slug is free again, and look past a full window, in one run', async () => {
    const parent = collectionCreated({ title: `Parent ${randomUUID()}` });
    const below = (title: string) => collectionCreated({ title, parentId: parent.data.id });
    const [plain, second] = [below('Alpha'), below('Alpha')];
    const crowd = Array.from({ length: 16 }, () => below(CROWD));
    const loner = below(LONER);
    const other = below('Beta');
    await db.apply([parent, plain, second, ...crowd, loner, other].map(record), asSets);
    await db.apply([record(deleted({ id: plain.data.id, kind: 'collection', recursive: false }))], asSets);
    const rename = (id: string, title: string): Rename => {
      const event = updated({ id, kind: 'collection', changes: { title, description: title }, previous: {} });
      return [event, record(event)];
    };
    await asRun(
      asSets,
      [rename(second.data.id, 'Alpha.'), rename(loner.data.id, CROWD), rename(other.data.id, 'Gamma')],
      [],
    );
    const slugs = await Promise.all(
      [second, loner, other].map(async (event) => (await db.row(event.data.id, asSets)).slug),
    );
    expect(slugs).toEqual(['alpha-2', 'crowd-17', 'gamma']);
    expect((await db.row(loner.data.id, asSets)).description).toBe(CROWD);
  });

  it('take one statement for all the renames of a run, and one for all its deletes', async () => {
    const parent = collectionCreated({ title: `Parent ${randomUUID()}` });
    const items = Array.from({ length: 9 }, (_, n) => `Item ${n}`).map((title) =>
      itemRegistered({ title, parentId: parent.data.id, metadata: itemMetadata(box) }),
    );
    await db.apply([parent, ...items].map(record), asSets);
    const [renamed, removed] = [items.slice(0, 5), items.slice(5)];
    const renames = renamed.map((item, n): Rename => {
      const changes = { title: `Renamed ${n}`, ...(n % 2 === 0 ? { description: 'new' } : {}) };
      const event = updated({ id: item.data.id, kind: 'item', changes, previous: {} });
      return [event, record(event)];
    });
    const removes = removed.map((item): Delete => {
      const event = deleted({ id: item.data.id, kind: 'item', recursive: false });
      return [event, record(event)];
    });
    const statements: string[] = [];
    await inSchema(asSets, async (sql) => {
      const counting: Sql = {
        query: ((config: { name?: string }) => {
          statements.push(config.name ?? '(unnamed)');
          return sql.query(config as Parameters<Sql['query']>[0]);
        }) as Sql['query'],
      };
      await applyRenamesInRun(counting, renames);
      await applyLeafDeletesInRun(counting, removes);
    });
    expect(statements).toEqual([
      'projector_portal_objects_rename_run',
      'projector_portal_objects_delete_leaves_run',
    ]);
    expect((await db.row(parent.data.id, asSets)).child_count).toBe(renamed.length);
  });

  it('fail loudly on two events of one object, which the run cutter never puts in one run', async () => {
    const rename = updated({
      id: randomUUID(),
      kind: 'collection',
      changes: { title: 'Twice' },
      previous: {},
    });
    const remove = deleted({ id: randomUUID(), kind: 'item', recursive: false });
    const [renamed, removed] = [record(rename), record(remove)];
    await expect(
      asRun(
        asSets,
        [
          [rename, renamed],
          [rename, renamed],
        ],
        [],
      ),
    ).rejects.toThrow(/two renames/);
    await expect(
      asRun(
        asSets,
        [],
        [
          [remove, removed],
          [remove, removed],
        ],
      ),
    ).rejects.toThrow(/two deletes/);
  });

  it('fail loudly on an object the read model lacks', async () => {
    const rename = updated({
      id: randomUUID(),
      kind: 'collection',
      changes: { title: 'Nowhere' },
      previous: {},
    });
    const remove = deleted({ id: randomUUID(), kind: 'item', recursive: false });
    await expect(asRun(asSets, [[rename, record(rename)]], [])).rejects.toThrow(/is not in the read model/);
    await expect(asRun(asSets, [], [[remove, record(remove)]])).rejects.toThrow(/is not in the read model/);
  });

  it('leave a parent that loses two ready items the extent of the item staying', async () => {
    const parent = collectionCreated({ title: `Parent ${randomUUID()}` });
    const box = (west: number, day: number) => ({ west, south: 0, width: 5, day });
    const items = [box(-100, 10), box(100, 500), box(0, 200)].map((at, n) =>
      itemRegistered({ title: `Item ${n}`, parentId: parent.data.id, metadata: itemMetadata(at) }),
    );
    await db.apply([parent, ...items].map(record), asSets);
    const removes = items
      .slice(0, 2)
      .map((item) => deleted({ id: item.data.id, kind: 'item', recursive: false }))
      .map((event): Delete => [event, record(event)]);
    await asRun(asSets, [], removes);
    const row = await db.row(parent.data.id, asSets);
    expect(row).toMatchObject({ child_count: 1, items_bbox: [0, 0, 5, 10] });
    expect(row.items_start?.toISOString()).toBe('2024-07-19T00:00:00.000Z');
  });
});
