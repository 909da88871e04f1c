import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessInconsistencies } from '../../support/access-consistency.js';
import { AccessModel } from '../../support/access-model.js';
import { dumpReadModel } from '../../support/dump.js';
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
const fresh = uniqueSchema('prj_access_rebuild');

beforeEach(async () => {
  fixture = await openFixture('access-rebuild');
});

afterEach(async () => {
  await dropSchemas(fixture.pool, [fresh]);
  await fixture.close();
});

describe('portal_objects: read principals through a rebuild', () => {
  it('builds the same access columns live (small batches) and in a rebuild, both as grantsOf says', async () => {
    const scenario = new PortalScenario(777, { items: true, access: true });
    const planned = Array.from({ length: 600 }, () => scenario.plan());
    for (const { streamId, event, expectedRevision } of planned) {
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
      log: captureLogger('access-rebuild').logger,
    });

    const model = new AccessModel().apply(planned.map(({ event }) => event));
    expect(await accessInconsistencies(fixture.pool, fixture.readSchema, { model })).toEqual([]);
    expect(await dumpReadModel(fixture.pool, fresh)).toEqual(
      await dumpReadModel(fixture.pool, fixture.readSchema),
    );
  });
});
