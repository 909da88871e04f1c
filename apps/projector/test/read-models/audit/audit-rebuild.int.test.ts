import { formatPosition, START, type RecordedEvent } from '@portal/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openFixture,
  startProjector,
  waitUntilCaughtUp,
  waitUntilHeadPasses,
  type ProjectorFixture,
} from '../../support/projector-fixture.js';
import { PortalScenario } from '../../support/scenario.js';
import { dropSchemas, uniqueSchema } from '../../support/test-database.js';
import { captureLogger } from '../../support/test-logger.js';
import { portalProjection } from '../../../src/portal-projection.js';
import type { Projection } from '@portal/read-model-core';
import { rebuildReadSchema } from '../../../src/rebuild/rebuild-read-schema.js';
import { ensureReadSchema } from '../../../src/schemas.js';
import { auditTrailIncomplete, backfillAuditTrail } from '../../../src/rebuild/audit-backfill.js';
import { rebuildOutdatedReadSchema } from '../../../src/rebuild/outdated-rebuild.js';
import { auditReadModel } from '@portal/read-model-audit';

let fixture: ProjectorFixture;
const fresh = uniqueSchema('prj_audit_rebuild');

/** The projection as it was before the audit read model: what an existing deployment's schema was built by. */
const beforeAudit: Projection = {
  name: portalProjection.name,
  readModels: portalProjection.readModels.filter((readModel) => readModel !== auditReadModel),
};

beforeEach(async () => {
  fixture = await openFixture('audit-rebuild');
});

afterEach(async () => {
  await dropSchemas(fixture.pool, [fresh]);
  await fixture.close();
});

/** Every event in the store, in the global order. */
async function storedEvents(): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  const subscription = new AbortController();
  const head = fixture.store.lastAppended;
  for await (const batch of fixture.store.inner.subscribeAll({ after: START, signal: subscription.signal })) {
    events.push(...batch);
    if (batch.at(-1)?.position.commit === head.commit) break;
  }
  subscription.abort();
  return events;
}

/** The audit rows without `seq` (a rebuild renumbers it), in seq order. */
async function auditRows(schema: string): Promise<Record<string, unknown>[]> {
  const result = await fixture.pool.query<Record<string, unknown>>(
    `SELECT event_id, position, stream_id, revision, type, org_id, object_id, object_kind, ancestor_ids,
            actor_id, occurred_at, data, metadata
       FROM "${schema}".audit_events ORDER BY seq`,
  );
  return result.rows;
}

async function appendScenario(seed: number, count: number): Promise<void> {
  const scenario = new PortalScenario(seed, { items: true, access: true });
  for (let i = 0; i < count; i += 1) {
    const { streamId, event, expectedRevision } = scenario.plan();
    await fixture.store.append(streamId, [event], { expectedRevision });
  }
}

function rebuildOptions(schema: string) {
  return {
    pool: fixture.pool,
    store: fixture.store,
    projection: portalProjection,
    schema,
    notifyChannel: fixture.channel,
    batchSize: 200,
    log: captureLogger('audit-rebuild').logger,
  };
}

describe('audit_events through the projector and a rebuild', () => {
  it('has one row per stored event in order, live (small batches) and rebuilt alike', async () => {
    await ensureReadSchema(fixture.pool, { schema: fixture.readSchema, projection: portalProjection });
    await appendScenario(9090, 400);
    const live = startProjector(fixture, { batchSize: 7 });
    await waitUntilCaughtUp(fixture);
    await live.stop();
    await waitUntilHeadPasses(fixture);
    await rebuildReadSchema(rebuildOptions(fresh));

    const rows = await auditRows(fixture.readSchema);
    const events = await storedEvents();
    expect(rows.map((row) => row.event_id)).toEqual(events.map((event) => event.id));
    expect(rows.map((row) => row.position)).toEqual(events.map((event) => formatPosition(event.position)));
    expect(await auditRows(fresh)).toEqual(rows);
    // Objects never change organization: every object event carries one of the scenario's two.
    const orgs = new Set(rows.map((row) => row.org_id));
    expect(orgs.size).toBe(2);
    expect(orgs.has(null)).toBe(false);
  });

  it('fills the trail of a deployment from before the audit read model at start-up, by a rebuild', async () => {
    const log = captureLogger('audit-backfill').logger;
    // An existing deployment: its projector, without the audit model, has applied 150 events.
    await dropSchemas(fixture.pool, [fixture.readSchema]);
    await ensureReadSchema(fixture.pool, { schema: fixture.readSchema, projection: beforeAudit });
    await appendScenario(5151, 150);
    const old = startProjector(fixture, { projection: beforeAudit });
    await waitUntilCaughtUp(fixture);
    await old.stop();

    // The release with the audit model: the schema records no audit read model, so the start rebuilds it
    // before following.
    expect(
      await ensureReadSchema(fixture.pool, { schema: fixture.readSchema, projection: portalProjection }),
    ).toBe('outdated');
    expect(await rebuildOutdatedReadSchema({ ...rebuildOptions(fixture.readSchema), log })).toBe('rebuilt');
    const live = startProjector(fixture);
    await appendScenario(6262, 50);
    await waitUntilCaughtUp(fixture);
    await live.stop();

    const events = await storedEvents();
    expect((await auditRows(fixture.readSchema)).map((row) => row.event_id)).toEqual(
      events.map((event) => event.id),
    );
    const options = { schema: fixture.readSchema, projection: portalProjection.name };
    expect(await auditTrailIncomplete(fixture.pool, fixture.store, options)).toBe(false);
    expect(await backfillAuditTrail({ ...rebuildOptions(fixture.readSchema), log })).toBe('complete');
  });

  it('rebuilds, beside the live projector, a trail that misses the history before it', async () => {
    const log = captureLogger('audit-backfill').logger;
    await appendScenario(5151, 100);
    const first = startProjector(fixture);
    await waitUntilCaughtUp(fixture);
    await first.stop();
    // A trail begun after events were projected.
    await fixture.pool.query(`DELETE FROM "${fixture.readSchema}".audit_events`);
    const options = { schema: fixture.readSchema, projection: portalProjection.name };
    expect(await auditTrailIncomplete(fixture.pool, fixture.store, options)).toBe(true);

    const live = startProjector(fixture);
    await appendScenario(6262, 30);
    await waitUntilHeadPasses(fixture);
    expect(await backfillAuditTrail({ ...rebuildOptions(fixture.readSchema), log })).toBe('rebuilt');
    await waitUntilCaughtUp(fixture);
    await live.stop();

    const events = await storedEvents();
    expect((await auditRows(fixture.readSchema)).map((row) => row.event_id)).toEqual(
      events.map((event) => event.id),
    );
    expect(await auditTrailIncomplete(fixture.pool, fixture.store, options)).toBe(false);
  });

  it('leaves a new deployment (nothing projected yet) and a complete trail alone', async () => {
    await ensureReadSchema(fixture.pool, { schema: fixture.readSchema, projection: portalProjection });
    const options = { schema: fixture.readSchema, projection: portalProjection.name };
    expect(await auditTrailIncomplete(fixture.pool, fixture.store, options)).toBe(false);
    await appendScenario(8484, 30);
    const live = startProjector(fixture);
    await waitUntilCaughtUp(fixture);
    await live.stop();
    expect(await auditTrailIncomplete(fixture.pool, fixture.store, options)).toBe(false);
  });
});
