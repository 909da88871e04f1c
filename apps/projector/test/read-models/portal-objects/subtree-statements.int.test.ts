import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@portal/domain';
import { keyedSubtreeLimit, statementFunctionsDdl } from '@portal/read-model-portal-objects';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalProjection } from '../../../src/portal-projection.js';
import { ensureReadSchema } from '../../../src/schemas.js';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  metadata,
  moved,
  RecordedEventLog,
  shared,
  streamOf,
  unshared,
  visibilityChanged,
} from '../../support/portal-events.js';
import { itemRegistered } from '../../support/item-events.js';
import { readModelInconsistencies } from '../../support/read-model-consistency.js';
import { dumpReadSchema, resetReadSchema } from '../../support/read-schema-dump.js';
import { useReadSchemas } from '../../support/read-schemas.js';
import { PortalScenario } from '../../support/scenario.js';
import { dropSchemas } from '../../support/test-database.js';

// A move, a delete and an access change take one of two statements: a leaf or a small subtree its rows
// by their ids (gathered first), a larger one its rows through the ancestor_ids index
// (statement-function.ts). Both must leave the same rows. The schema `keyed` takes the ids for every
// subtree, whatever its size; `indexed` takes the index for every object, a leaf too; the test file's
// own schema takes the way the projector does, by size.

const db = useReadSchemas('subtree-statements');
const keyed = db.schema.replace('prj_read', 'prj_keyed');
const indexed = db.schema.replace('prj_read', 'prj_indexed');
const histories = Number(process.env.SUBTREE_HISTORIES ?? 8);

beforeAll(async () => {
  for (const [schema, keyedLimit] of [
    [keyed, 1_000_000],
    [indexed, -1],
  ] as const) {
    await ensureReadSchema(db.pool, { schema, projection: portalProjection });
    // The same statements again, taking one way only.
    await db.pool.query(
      `BEGIN; SET LOCAL search_path TO "${schema}", public; ${statementFunctionsDdl(keyedLimit)}; COMMIT`,
    );
  }
});

afterAll(() => dropSchemas(db.pool, [keyed, indexed]));

/** A random valid history (creates, renames, moves, deletes, items, access changes), as a store records it. */
function scenarioHistory(seed: number, length: number): RecordedEvent[] {
  const scenario = new PortalScenario(seed, { items: true, access: true });
  return Array.from({ length }, (_, index) => {
    const { streamId, expectedRevision, event } = scenario.plan();
    if (typeof expectedRevision !== 'bigint' && expectedRevision !== 'no_stream') {
      throw new Error(`unexpected revision ${expectedRevision}`);
    }
    const position = BigInt(index + 1);
    return {
      ...event,
      streamId,
      revision: expectedRevision === 'no_stream' ? 0n : expectedRevision + 1n,
      position: { commit: position, prepare: position },
    };
  });
}

/** Applies the events to each schema in batches of `size` and expects every schema to hold the same rows. */
async function expectSameRows(events: readonly RecordedEvent[], size: number): Promise<void> {
  const schemas = [db.schema, keyed, indexed];
  for (const schema of schemas) {
    await resetReadSchema(db.pool, schema);
    for (let start = 0; start < events.length; start += size) {
      await db.apply(events.slice(start, start + size), schema);
    }
  }
  const expected = await dumpReadSchema(db.pool, keyed);
  expect(await dumpReadSchema(db.pool, indexed), 'every subtree through the index').toEqual(expected);
  expect(await dumpReadSchema(db.pool, db.schema), 'each subtree its way').toEqual(expected);
}

describe('subtree statements: by ids and through the ancestors index', () => {
  it('leave the same rows over random histories of moves, deletes and access changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 1, max: 20 }),
        async (seed, length, size) => expectSameRows(scenarioHistory(seed, length), size),
      ),
      { numRuns: histories },
    );
  });

  it('move, share, hide and delete a subtree wider than the keyed limit: every row below, as by ids', async () => {
    const log = new RecordedEventLog();
    let clock = Date.parse('2025-06-01T00:00:00.000Z');
    const record = (...events: Parameters<typeof streamOf>[0][]): RecordedEvent[] =>
      events.map((event) => {
        clock += 1000;
        const at = new Date(clock).toISOString();
        return log.record(event, streamOf(event), metadata({ orgId, occurredAt: at }));
      });
    const orgId = randomUUID();
    const [creator, reader] = [randomUUID(), randomUUID()];
    const access = { orgId, createdBy: creator, visibility: 'org' } as const;
    const source = catalogCreated({ title: 'Source', ...access });
    const target = catalogCreated({ title: 'Target', ...access });
    const wide = catalogCreated({ title: 'Wide', parentId: source.data.id, ...access });
    // 3 catalogs of 45 collections each, and two ready items: 140 rows below `wide`.
    const middles = [0, 1, 2].map((n) =>
      catalogCreated({
        title: `Middle ${n}`,
        parentId: wide.data.id,
        ...access,
        visibility: n === 2 ? 'private' : 'org',
      }),
    );
    const leaves = middles.flatMap((middle, m) =>
      Array.from({ length: 45 }, (_, n) =>
        collectionCreated({
          title: `Leaf ${m}-${n}`,
          parentId: middle.data.id,
          ...access,
          visibility: n % 7 === 0 ? 'public' : n % 11 === 0 ? 'private' : 'org',
        }),
      ),
    );
    const holder = leaves[0];
    if (!holder) throw new Error('no leaf');
    const items = [0, 1].map((n) =>
      itemRegistered({
        title: `Item ${n}`,
        parentId: holder.data.id,
        ...access,
        metadata: { bbox: [n, n, n + 1, n + 1], datetime: `2024-0${n + 1}-01T00:00:00.000Z` },
      }),
    );
    const setUp = record(source, target, wide, ...middles, ...leaves, ...items);
    const below = [...middles, ...leaves, ...items].map((event) => event.data.id);
    expect(below.length).toBeGreaterThan(keyedSubtreeLimit);
    const id = wide.data.id;
    const kind = 'catalog';
    const steps: RecordedEvent[][] = [
      record(moved({ id, kind, fromParentId: source.data.id, toParentId: target.data.id })),
      record(
        shared({ id, kind, principal: { type: 'user', id: reader }, permission: 'viewer', previous: null }),
      ),
      record(
        shared({
          id: middles[1]?.data.id ?? '',
          kind,
          principal: { type: 'organization', id: randomUUID() },
          permission: 'editor',
          previous: null,
        }),
      ),
      record(visibilityChanged({ id, kind, from: 'org', to: 'private' })),
      record(unshared({ id, kind, principal: { type: 'user', id: reader }, permission: 'viewer' })),
      record(visibilityChanged({ id, kind, from: 'private', to: 'public' })),
      record(deleted({ id: middles[0]?.data.id ?? '', kind, recursive: true })),
      record(moved({ id, kind, fromParentId: target.data.id, toParentId: null })),
      record(moved({ id, kind, fromParentId: null, toParentId: target.data.id })),
      record(deleted({ id: target.data.id, kind, recursive: true })),
    ];
    for (const schema of [db.schema, keyed]) {
      await resetReadSchema(db.pool, schema);
      await db.apply(setUp, schema);
    }
    for (const [index, events] of steps.entries()) {
      for (const schema of [db.schema, keyed]) await db.apply(events, schema);
      expect(await dumpReadSchema(db.pool, db.schema), `after step ${index + 1}`).toEqual(
        await dumpReadSchema(db.pool, keyed),
      );
      expect(await readModelInconsistencies(db.pool, db.schema), `after step ${index + 1}`).toEqual([]);
      if (index === 0) {
        // Every row below took the new path, not only the first `keyedSubtreeLimit` of them.
        const placed = await db.pool.query<{ count: string }>(
          `SELECT count(*) FROM "${db.schema}".portal_objects WHERE ancestor_ids[1:2] = $1::uuid[]`,
          [[target.data.id, id]],
        );
        expect(Number(placed.rows[0]?.count)).toBe(below.length);
      }
    }
    // The recursive delete of `target` buried all of them.
    const buried = await db.pool.query<{ count: string }>(
      `SELECT count(*) FROM "${db.schema}".portal_objects WHERE id = ANY($1) AND deleted_at IS NOT NULL`,
      [[id, ...below]],
    );
    expect(Number(buried.rows[0]?.count)).toBe(below.length + 1);
  });
});
