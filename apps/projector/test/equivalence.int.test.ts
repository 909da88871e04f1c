import { comparePositions, START, type EventStore, type Position, type RecordedEvent } from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import type { Pool } from '@portal/platform';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch, type Application } from '../src/batch.js';
import { portalProjection } from '../src/portal-projection.js';
import { rebuildReadSchema } from '../src/rebuild/rebuild-read-schema.js';
import { batchFootprints, cutIntoSteps } from '../src/sets/runs.js';
import { ensureReadSchema } from '../src/schemas.js';
import { dumpReadSchema, resetReadSchema } from './support/read-schema-dump.js';
import { PortalScenario } from './support/scenario.js';
import { itemsOutOfStep, storedItemCount } from './support/stac-item-freshness.js';
import { dropSchemas, ensureTestDatabase, openTestPool, uniqueSchema } from './support/test-database.js';
import { captureLogger } from './support/test-logger.js';

// Set-based application (runs of sets between the events that go alone) must leave exactly the rows
// event-by-event application leaves, whatever the batch size, and so must a (lean) rebuild, in batches
// and by copy (the history folded in memory, each table written once). Histories are
// random and valid: creates with colliding titles, renames, moves of subtrees, deletes, uploads and
// their assets, visibility changes, shares, users and organizations. EQUIVALENCE_HISTORIES sets how
// many (thousands for a long run, which then prints its progress), EQUIVALENCE_MAX_EVENTS how long
// each may be; EQUIVALENCE_SEED replays the seed fast-check printed on a failure.

const histories = Number(process.env.EQUIVALENCE_HISTORIES ?? 25);
const replaySeed = process.env.EQUIVALENCE_SEED;
const maxEvents = Number(process.env.EQUIVALENCE_MAX_EVENTS ?? 150);
// A long run takes hours on a loaded machine; a line every 50 histories says how far it got.
const progressEvery = histories > 100 ? 50 : Infinity;
const setBatchSizes = [1, 7, 500] as const;

let pool: Pool;
const reference = uniqueSchema('prj_eq_events');
const bySets = setBatchSizes.map((size) => ({ size, schema: uniqueSchema(`prj_eq_sets${size}`) }));
const rebuilt = uniqueSchema('prj_eq_rebuilt');
const copied = uniqueSchema('prj_eq_copied');
const logs = captureLogger('equivalence');

beforeAll(async () => {
  await ensureTestDatabase();
  pool = openTestPool('equivalence', 4);
  for (const schema of [reference, ...bySets.map(({ schema }) => schema)]) {
    await ensureReadSchema(pool, { schema, projection: portalProjection });
  }
});

afterAll(async () => {
  await dropSchemas(pool, [reference, ...bySets.map(({ schema }) => schema), rebuilt, copied]);
  await pool.end();
});

/**
 * New sessions for the next histories. Each history truncates four schemas and builds two more, so a
 * session's caches of relations and plans grow with every history it served: in a run of a thousand,
 * the backends reached 900 MB and a history took five times as long as the first ones.
 */
async function freshConnections(): Promise<void> {
  await pool.end();
  pool = openTestPool('equivalence', 4);
}

/** Every event of the store, in order, as a subscriber gets them. */
async function everyEvent(store: EventStore): Promise<RecordedEvent[]> {
  const head = await store.headPosition();
  const events: RecordedEvent[] = [];
  const subscription = new AbortController();
  try {
    for await (const batch of store.subscribeAll({ after: START, signal: subscription.signal })) {
      events.push(...batch);
      const last = batch.at(-1);
      if (last && comparePositions(last.position, head) >= 0) break;
    }
  } finally {
    subscription.abort();
  }
  return events;
}

/** Applies the events in batches of `size`, each in its own transaction with the checkpoint, as the runner does. */
async function applyInBatches(
  schema: string,
  events: readonly RecordedEvent[],
  size: number,
  application: Application,
): Promise<void> {
  const target = { projection: portalProjection, schema, notifyChannel: null, log: logs.logger };
  let expected: Position = START;
  for (let start = 0; start < events.length; start += size) {
    const outcome = await applyBatch(pool, target, events.slice(start, start + size), expected, application);
    if (outcome.kind !== 'applied') throw new Error(`checkpoint of ${schema} moved`);
    expected = outcome.position;
  }
}

const history = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  length: fc.integer({ min: 1, max: maxEvents }),
  rebuildBatchSize: fc.integer({ min: 1, max: 200 }),
});

/** The kinds of events that went alone before the batch's footprints placed them, by the runs they joined. */
const joinedRuns = new Map<string, number>();

/** Counts the renames, moves and deletes that join runs when the whole history is one batch. */
async function countJoined(events: readonly RecordedEvent[]): Promise<void> {
  // Every object is created in the history, so the footprints read nothing from the database.
  const footprints = await batchFootprints(pool, portalProjection, events);
  for (const step of cutIntoSteps(portalProjection, events, footprints)) {
    if (step.kind !== 'run') continue;
    for (const event of step.events) {
      const renamed = event.type === 'PortalObjectUpdated' && (event.data as { changes: object }).changes;
      const kind = renamed && 'title' in renamed ? 'renamed' : event.type;
      if (['renamed', 'PortalObjectMoved', 'PortalObjectDeleted'].includes(kind)) {
        joinedRuns.set(kind, (joinedRuns.get(kind) ?? 0) + 1);
      }
    }
  }
}

/**
 * Applies one generated history every way and expects every way to leave the reference's rows; answers
 * how many items of the reference hold a stored STAC JSON text.
 */
async function expectEquivalent({
  seed,
  length,
  rebuildBatchSize,
}: {
  readonly seed: number;
  readonly length: number;
  readonly rebuildBatchSize: number;
}): Promise<number> {
  const store = new InMemoryEventStore();
  await new PortalScenario(seed, { items: true, access: true, identity: true }).appendTo(store, length);
  const events = await everyEvent(store);
  expect(events).toHaveLength(length);
  await countJoined(events);

  await resetReadSchema(pool, reference);
  await applyInBatches(reference, events, events.length, 'events');
  const expected = await dumpReadSchema(pool, reference);
  // Every item's stored STAC JSON is what the API builds from its row (batch size 1 below then shows
  // no event leaves one behind its row, since every schema must equal this one).
  expect(await itemsOutOfStep(pool, reference)).toEqual([]);

  for (const { size, schema } of bySets) {
    await resetReadSchema(pool, schema);
    await applyInBatches(schema, events, size, 'runs');
    expect(await dumpReadSchema(pool, schema), `batch size ${size}`).toEqual(expected);
  }
  const rebuild = {
    pool,
    store,
    projection: portalProjection,
    notifyChannel: uniqueSchema('prj_eq_channel'),
    batchSize: rebuildBatchSize,
    log: logs.logger,
    // Lean (the default, said here for the reader): replayed without the reader indexes and the
    // inventory totals' triggers, which then fill the totals from the replayed rows.
    readerIndexes: 'after-replay',
  } as const;
  const bySql = await rebuildReadSchema({ ...rebuild, schema: rebuilt, replay: 'batches' });
  expect(bySql.replay).toBe('batches');
  expect(await dumpReadSchema(pool, rebuilt), 'rebuild in batches').toEqual(expected);
  // Folded in memory and copied, in pages of the same random size (the audit rows go page by page).
  const byCopy = await rebuildReadSchema({
    ...rebuild,
    schema: copied,
    replay: 'copy',
    copyPageSize: rebuildBatchSize,
  });
  // A history it could not fold would have gone the SQL way, and proved nothing of the fold.
  expect(byCopy.replay).toBe('copy');
  expect(await dumpReadSchema(pool, copied), 'rebuild by copy').toEqual(expected);
  // A run that failed would have been applied again event by event, and proved nothing.
  expect(logs.messages()).not.toContain('a run of the batch failed; applying the batch again event by event');
  return storedItemCount(pool, reference);
}

describe('set-based application', () => {
  it(
    'leaves the rows of event-by-event application at batch sizes 1, 7 and 500, and so do rebuilds in batches and by copy',
    async () => {
      const started = Date.now();
      let tried = 0;
      let storedItems = 0;
      await fc.assert(
        fc.asyncProperty(history, async (generated) => {
          tried += 1;
          if (tried % progressEvery === 0) {
            const seconds = Math.round((Date.now() - started) / 1000);
            process.stderr.write(`equivalence: ${tried} of ${histories} histories tried, ${seconds} s\n`);
            await freshConnections();
          }
          try {
            storedItems += await expectEquivalent(generated);
          } catch (error) {
            // fast-check says which history failed only once the whole run (and the shrinking) ends.
            if (progressEvery !== Infinity) {
              process.stderr.write(`equivalence: history ${JSON.stringify(generated)} failed\n`);
            }
            throw error;
          }
        }),
        { numRuns: histories, ...(replaySeed === undefined ? {} : { seed: Number(replaySeed) }) },
      );
      // The histories held items, so the texts were compared, not only their absence.
      expect(storedItems).toBeGreaterThan(0);
      // And renames, moves and deletes in runs, so those were compared too.
      if (histories >= 10) {
        expect([...joinedRuns.keys()].sort()).toEqual([
          'PortalObjectDeleted',
          'PortalObjectMoved',
          'renamed',
        ]);
      }
    },
    // A second or two per history; long runs get time in proportion.
    Math.max(600_000, histories * 20_000),
  );
});
