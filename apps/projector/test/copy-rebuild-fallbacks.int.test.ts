import type { PortalObjectEvent } from '@portal/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listDeadLetters } from '../src/dead-letters/dead-letter-queries.js';
import { skipDeadLetter } from '../src/dead-letters/resolve-dead-letter.js';
import { portalProjection } from '../src/portal-projection.js';
import { foldableObjects } from '../src/rebuild/copy/copy-replay.js';
import { rebuildReadSchema, type RebuildOptions } from '../src/rebuild/rebuild-read-schema.js';
import { catalogCreated, streamOf, toAppend, updated } from './support/portal-events.js';
import {
  checkpointOf,
  openFixture,
  startProjector,
  waitUntilCaughtUp,
  waitUntilHeadPasses,
  type ProjectorFixture,
} from './support/projector-fixture.js';
import { dumpReadSchema } from './support/read-schema-dump.js';
import { PortalScenario } from './support/scenario.js';
import { dropSchemas, uniqueSchema } from './support/test-database.js';
import { captureLogger } from './support/test-logger.js';

// The copy rebuild's two ways off the common path, each against the live projection of the same
// history in real PostgreSQL: an event the operator skipped (passed over by the fold as by the live
// batches), and a history with more objects than the process may fold (replayed in batches instead,
// still passing over the skip).

/** The heap V8 reports to the fold, when a test shrinks it; `null`: the real one. */
const reportedHeap = vi.hoisted(() => ({ bytes: null as number | null }));

vi.mock('node:v8', async (importOriginal) => {
  const v8 = await importOriginal<typeof import('node:v8')>();
  return {
    ...v8,
    getHeapStatistics: () => {
      const statistics = v8.getHeapStatistics();
      return reportedHeap.bytes === null
        ? statistics
        : { ...statistics, heap_size_limit: reportedHeap.bytes };
    },
  };
});

let fixture: ProjectorFixture;
const rebuilt: string[] = [];

beforeEach(async () => {
  fixture = await openFixture('copy-fallbacks');
});

afterEach(async () => {
  reportedHeap.bytes = null;
  await dropSchemas(fixture.pool, rebuilt.splice(0));
  await fixture.close();
});

const POISONED_TITLE = 'Poisoned';
/** A title no generated object takes, so its slugs are the test's alone. */
const RENAMED_TITLE = 'Ledger of skips';

/**
 * Makes the live schema refuse one title, as a handler bug would: the event that gives it fails in
 * every retry and becomes a dead letter. A rebuild's fresh schema has no such trigger.
 */
async function refuseTitleInLiveSchema(): Promise<void> {
  const schema = `"${fixture.readSchema}"`;
  await fixture.pool.query(`
    CREATE FUNCTION ${schema}.refuse_poisoned_title() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.title = '${POISONED_TITLE}' THEN RAISE EXCEPTION 'the live schema refuses this title'; END IF;
      RETURN NEW;
    END $$`);
  await fixture.pool.query(`
    CREATE TRIGGER refuse_poisoned_title BEFORE INSERT OR UPDATE ON ${schema}.portal_objects
      FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse_poisoned_title()`);
}

async function append(event: PortalObjectEvent, expectedRevision: 'no_stream' | bigint): Promise<void> {
  await fixture.store.append(streamOf(event), [toAppend(event)], { expectedRevision });
}

/**
 * A generated history with, in its middle, a rename the live projection dead-letters and the operator
 * skips. The skip shows in what follows: a second catalog titled like the renamed one finds the slug
 * still taken (`…-2`), which it would not be had the rename been applied.
 */
async function historyWithSkippedRename(): Promise<void> {
  const scenario = new PortalScenario(4242, { items: true, access: true, identity: true });
  await scenario.appendTo(fixture.store, 120);
  const alpha = catalogCreated({ title: RENAMED_TITLE });
  await append(alpha, 'no_stream');
  await append(
    updated({
      id: alpha.data.id,
      kind: 'catalog',
      changes: { title: POISONED_TITLE },
      previous: { title: RENAMED_TITLE },
    }),
    0n,
  );
  await append(catalogCreated({ title: RENAMED_TITLE }), 'no_stream');
  await scenario.appendTo(fixture.store, 60);
}

/** Projects the history live, the rename dead-lettered and skipped by an operator; returns every row. */
async function projectLiveSkippingTheRename(): Promise<Record<string, unknown[]>> {
  await refuseTitleInLiveSchema();
  const halted = startProjector(fixture, { retryDelaysMs: [5] });
  await expect(halted.done).rejects.toThrow(/projection halted/);
  const letters = await listDeadLetters(
    fixture.pool,
    { operationsSchema: fixture.operationsSchema, projection: portalProjection.name },
    await checkpointOf(fixture),
    10,
  );
  expect(letters.map(({ type, state }) => ({ type, state }))).toEqual([
    { type: 'PortalObjectUpdated', state: 'open' },
  ]);
  await skipDeadLetter(
    {
      pool: fixture.pool,
      store: fixture.store,
      projection: portalProjection,
      schema: fixture.readSchema,
      operationsSchema: fixture.operationsSchema,
      notifyChannel: fixture.channel,
      log: captureLogger('desk').logger,
    },
    letters[0]?.id ?? '',
    { operator: 'ops@test', reason: 'a rename the live schema refused' },
  );
  const projector = startProjector(fixture);
  await waitUntilCaughtUp(fixture);
  await projector.stop();
  await waitUntilHeadPasses(fixture);
  const live = await dumpReadSchema(fixture.pool, fixture.readSchema);
  const alphas = live.portal_objects?.filter((row) => (row as { title: string }).title === RENAMED_TITLE);
  expect(alphas?.map((row) => (row as { slug: string }).slug).sort()).toEqual([
    'ledger-of-skips',
    'ledger-of-skips-2',
  ]);
  return live;
}

/** A copy rebuild (the default) into a schema of its own, passing over the operator's skips. */
function rebuildBeside(options: Partial<RebuildOptions> = {}): RebuildOptions {
  const schema = uniqueSchema('prj_copy_beside');
  rebuilt.push(schema);
  return {
    pool: fixture.pool,
    store: fixture.store,
    projection: portalProjection,
    schema,
    notifyChannel: uniqueSchema('prj_copy_channel'),
    batchSize: 50,
    log: captureLogger('copy-fallbacks').logger,
    operationsSchema: fixture.operationsSchema,
    replay: 'copy',
    ...options,
  };
}

describe('copy rebuild fallbacks', () => {
  it('passes over an event the operator skipped, folding the rest, and leaves the live rows', async () => {
    await historyWithSkippedRename();
    const live = await projectLiveSkippingTheRename();

    const options = rebuildBeside({ copyPageSize: 7 });
    const result = await rebuildReadSchema(options);

    // Folded, not fallen back: the skip is the fold's to honour.
    expect(result.replay).toBe('copy');
    expect(await dumpReadSchema(fixture.pool, options.schema)).toEqual(live);
  });

  it('replays a history past the object limit in batches, passing over the skip, and leaves the live rows', async () => {
    await historyWithSkippedRename();
    const live = await projectLiveSkippingTheRename();
    const objects = live.portal_objects?.length ?? 0;
    // A heap that holds a quarter of the history's objects: the fold gives up partway, after some
    // pages of audit rows were copied, and the schema is made again from scratch.
    const limit = Math.floor(objects / 4);
    reportedHeap.bytes = Math.ceil((limit * 2560) / 0.6);
    expect(foldableObjects()).toBe(limit);
    const logs = captureLogger('copy-fallbacks-limit');

    const options = rebuildBeside({ copyPageSize: 7, log: logs.logger });
    const result = await rebuildReadSchema(options);

    expect(result.replay).toBe('batches');
    const fallback = logs.lines.find(
      (line) =>
        line.msg === 'rebuild: the history cannot be folded in memory; replaying it in batches instead',
    );
    expect(fallback?.reason).toContain(`more than ${limit} objects do not fit in this process's heap`);
    expect(await dumpReadSchema(fixture.pool, options.schema)).toEqual(live);
  });
});
