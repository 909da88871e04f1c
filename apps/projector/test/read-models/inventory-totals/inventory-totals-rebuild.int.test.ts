import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maintainedTotals, recountedTotals } from '../../support/inventory-totals.js';
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
import { rebuildReadSchema } from '../../../src/rebuild/rebuild-read-schema.js';

let fixture: ProjectorFixture;
const fresh = uniqueSchema('prj_totals_rebuild');

beforeEach(async () => {
  fixture = await openFixture('totals-rebuild');
});

afterEach(async () => {
  await dropSchemas(fixture.pool, [fresh]);
  await fixture.close();
});

describe('inventory_totals through the projector and a rebuild', () => {
  it('builds the same totals live (small batches) and in a rebuild, and keeps them after the rename', async () => {
    const scenario = new PortalScenario(4242, { items: true, access: true });
    for (let i = 0; i < 600; i += 1) {
      const { streamId, event, expectedRevision } = scenario.plan();
      await fixture.store.append(streamId, [event], { expectedRevision });
    }
    const live = startProjector(fixture, { batchSize: 7 });
    await waitUntilCaughtUp(fixture);
    await live.stop();
    await waitUntilHeadPasses(fixture);
    await rebuildReadSchema({
      pool: fixture.pool,
      store: fixture.store,
      projection: portalProjection,
      schema: fresh,
      notifyChannel: fixture.channel,
      batchSize: 200,
      log: captureLogger('totals-rebuild').logger,
    });

    const totals = await maintainedTotals(fixture.pool, fixture.readSchema);
    expect(totals.length).toBeGreaterThan(0);
    expect(totals).toEqual(await recountedTotals(fixture.pool, fixture.readSchema));
    expect(await maintainedTotals(fixture.pool, fresh)).toEqual(totals);

    // Built in `<fresh>_rebuild_<stamp>` and renamed: the triggers follow the table to its new schema.
    await fixture.pool.query(
      `UPDATE "${fresh}".portal_objects SET read_principals = '{public}' WHERE kind = 'collection'`,
    );
    expect(await maintainedTotals(fixture.pool, fresh)).toEqual(await recountedTotals(fixture.pool, fresh));
    expect(await maintainedTotals(fixture.pool, fresh)).not.toEqual(totals);
  });
});
