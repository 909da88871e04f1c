import { InMemoryEventStore } from '@portal/eventstore';
import type { Pool } from '@portal/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalProjection } from '../src/portal-projection.js';
import { rebuildReadSchema, type RebuildProgress } from '../src/rebuild/rebuild-read-schema.js';
import { ensureReadSchema, readerStatements } from '../src/schemas.js';
import { statementLabel } from '@portal/read-model-core';
import { schemaCatalog } from './support/schema-catalog.js';
import { PortalScenario } from './support/scenario.js';
import { dropSchemas, ensureTestDatabase, openTestPool, uniqueSchema } from './support/test-database.js';
import { captureLogger } from './support/test-logger.js';

// A rebuild replays into tables with only what the projector needs, then builds what readers need. The
// schema it swaps in must be the schema a normal start creates, to the last index, trigger, constraint
// and statistics object: compared here through PostgreSQL's own definitions. (Its rows are compared with
// those of the live paths by the equivalence test.)

let pool: Pool;
const created: string[] = [];
const { logger } = captureLogger('lean-rebuild');

beforeAll(async () => {
  await ensureTestDatabase();
  pool = openTestPool('lean-rebuild', 4);
});

afterAll(async () => {
  await dropSchemas(pool, created);
  await pool.end();
});

async function schemaCreatedWhole(): Promise<string> {
  const schema = uniqueSchema('prj_whole');
  created.push(schema);
  await ensureReadSchema(pool, { schema, projection: portalProjection });
  return schema;
}

/** The reader statements' index names: what a lean schema must lack, and nothing else. */
function readerIndexNames(): string[] {
  return readerStatements(portalProjection)
    .map(statementLabel)
    .filter((label) => label.startsWith('index '))
    .map((label) => label.slice('index '.length));
}

describe('a lean rebuild', () => {
  it('swaps in a schema with the indexes, constraints, triggers and statistics of one created whole', async () => {
    const whole = await schemaCreatedWhole();
    const store = new InMemoryEventStore();
    await new PortalScenario(31, { items: true, access: true, identity: true }).appendTo(store, 200);
    const rebuilt = uniqueSchema('prj_lean');
    created.push(rebuilt);
    const progress: RebuildProgress[] = [];

    const result = await rebuildReadSchema({
      pool,
      store,
      projection: portalProjection,
      schema: rebuilt,
      notifyChannel: uniqueSchema('prj_lean_channel'),
      batchSize: 50,
      log: logger,
      onProgress: (step) => progress.push(step),
    });

    const expected = await schemaCatalog(pool, whole);
    expect(expected.triggers.length).toBeGreaterThan(0);
    expect(expected.statistics.length).toBeGreaterThan(0);
    expect(await schemaCatalog(pool, rebuilt)).toEqual(expected);
    // Every reader statement was reported as it began, then the end, after the replay and before the swap.
    const indexing = progress.filter((step) => step.phase === 'indexing');
    // A copy replay leaves the projector indexes of portal_objects to be built with the reader indexes.
    const total = indexing.at(-1)?.readerDdl?.total ?? 0;
    expect(total).toBeGreaterThanOrEqual(readerStatements(portalProjection).length);
    expect(indexing.map((step) => step.readerDdl?.done)).toEqual(
      Array.from({ length: total + 1 }, (_, i) => i),
    );
    expect(indexing.map((step) => step.events)).toEqual(indexing.map(() => 200));
    // Each statement's time, under the name the progress gave it.
    const timed = result.readerStatementsMs.map((time) => time.label);
    expect(timed).toHaveLength(total);
    expect(timed).toEqual(expect.arrayContaining(readerStatements(portalProjection).map(statementLabel)));
    const begun = indexing.map((step) => step.readerDdl?.current ?? '').filter((label) => label !== '');
    expect(new Set(timed)).toEqual(new Set(begun));
    expect(result.readerStatementsMs.every((time) => Number.isInteger(time.ms) && time.ms >= 0)).toBe(true);
    expect(progress.map((step) => step.phase).filter((phase, i, all) => phase !== all[i - 1])).toEqual([
      'replaying',
      'indexing',
      'analyzing',
      'swapping',
    ]);
  });

  it('replays into a schema that lacks exactly the reader indexes and every reader trigger', async () => {
    const whole = await schemaCatalog(pool, await schemaCreatedWhole());
    const lean = uniqueSchema('prj_lean_only');
    created.push(lean);
    await ensureReadSchema(pool, { schema: lean, projection: portalProjection, lean: true });
    const leanCatalog = await schemaCatalog(pool, lean);

    const nameOf = (definition: string): string => definition.slice(0, definition.indexOf(':'));
    const missing = whole.indexes
      .map(nameOf)
      .filter((name) => !leanCatalog.indexes.map(nameOf).includes(name));
    expect(missing.sort()).toEqual(readerIndexNames().sort());
    // What the projector's statements use stays: keys, the sibling slug key, children, subtrees.
    expect(leanCatalog.indexes.map(nameOf)).toEqual(
      expect.arrayContaining([
        'portal_objects_pkey',
        'portal_objects_sibling_slug_in_org',
        'portal_objects_parent',
        'portal_objects_ancestors',
        'audit_events_event_id_key',
      ]),
    );
    // The one trigger the projector needs: it keeps each item's stored STAC JSON in step with its row.
    expect(leanCatalog.triggers.map(nameOf)).toEqual(['portal_objects.portal_objects_stac_item_stale']);
    expect(leanCatalog.statistics).toEqual([]);
    expect(leanCatalog.constraints).toEqual(whole.constraints);
    expect(leanCatalog.columns).toEqual(whole.columns);
  });
});
