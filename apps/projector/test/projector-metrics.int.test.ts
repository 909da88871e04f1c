import type { RecordedEvent } from '@portal/domain';
import { createMetricsRegistry, type Registry } from '@portal/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectorMetrics } from '../src/metrics/projector-metrics.js';
import { portalProjection } from '../src/portal-projection.js';
import type { Projection, ReadModel } from '@portal/read-model-core';
import type { ProjectorObserver } from '../src/projector-observer.js';
import { ProjectionHaltedError } from '../src/runner.js';
import { ensureReadSchema } from '../src/schemas.js';
import { catalogCreated, streamOf, toAppend } from './support/portal-events.js';
import {
  openFixture,
  startProjector,
  waitUntilCaughtUp,
  waitUntilHeadPasses,
  type ProjectorFixture,
} from './support/projector-fixture.js';
import { captureLogger } from './support/test-logger.js';

let fixture: ProjectorFixture;

beforeEach(async () => {
  fixture = await openFixture('metrics');
});

afterEach(async () => {
  await fixture.close();
});

async function appendCatalogs(titles: readonly string[]): Promise<void> {
  for (const title of titles) {
    const event = catalogCreated({ title });
    await fixture.store.append(streamOf(event), [toAppend(event)], { expectedRevision: 'no_stream' });
  }
}

/** A process's metrics as its main.ts builds them, on this test's schemas. */
function metricsOf(): { registry: Registry; observer: ProjectorObserver } {
  const registry = createMetricsRegistry();
  const observer = projectorMetrics(
    registry,
    {
      pool: fixture.pool,
      store: fixture.store,
      projection: portalProjection.name,
      schema: fixture.readSchema,
      operationsSchema: fixture.operationsSchema,
    },
    captureLogger('metrics').logger,
  );
  return { registry, observer };
}

/** What a scrape would read now: every sample of the registry by its name (label-less metrics only). */
async function scrapeOf(registry: Registry): Promise<Record<string, number>> {
  const values: Record<string, number> = {};
  for (const metric of await registry.getMetricsAsJSON()) {
    for (const sample of metric.values) {
      const name = (sample as { metricName?: string }).metricName ?? metric.name;
      if (Object.keys(sample.labels).length === 0) values[name] = sample.value;
    }
  }
  return values;
}

describe('projector metrics', () => {
  it('follow the batches and the leadership, and read the checkpoint and the head', async () => {
    const { registry, observer } = metricsOf();
    await appendCatalogs(['one', 'two', 'three']);
    const projector = startProjector(fixture, { observer, batchSize: 2 });
    await waitUntilCaughtUp(fixture);
    await waitUntilHeadPasses(fixture);
    const leading = await scrapeOf(registry);
    await projector.stop();
    const stopped = await scrapeOf(registry);

    expect(leading['portal_projector_leader']).toBe(1);
    expect(stopped['portal_projector_leader']).toBe(0);
    expect(leading['portal_projector_events_applied_total']).toBeGreaterThanOrEqual(3);
    expect(leading['portal_projector_batch_events_sum']).toBe(
      leading['portal_projector_events_applied_total'],
    );
    expect(leading['portal_projector_batch_duration_seconds_count']).toBeGreaterThanOrEqual(2);
    expect(leading['portal_projector_checkpoint_position']).toBe(Number(fixture.store.lastAppended.prepare));
    expect(leading['portal_projector_lag_events']).toBe(0);
    expect(leading['portal_projector_lag_seconds']).toBe(0);
    expect(leading['portal_projector_halted']).toBe(0);
    expect(leading['portal_projector_dead_letters']).toBe(0);
  });

  it('report a halt on a dead letter, also from an instance that starts after it', async () => {
    const poisonous: ReadModel = {
      name: 'poisonous',
      version: 1,
      ddl: 'SELECT 1',
      apply: (_sql, event: RecordedEvent) =>
        (event.data as { title?: string }).title === 'poison'
          ? Promise.reject(new Error('cannot digest this'))
          : Promise.resolve(),
    };
    const projection: Projection = {
      name: 'portal',
      readModels: [...portalProjection.readModels, poisonous],
    };
    await ensureReadSchema(fixture.pool, { schema: fixture.readSchema, projection });
    await appendCatalogs(['good 1', 'good 2']);
    const poison = catalogCreated({ title: 'poison' });
    await fixture.store.append(streamOf(poison), [toAppend(poison)], { expectedRevision: 'no_stream' });
    await appendCatalogs(['after']);
    await waitUntilHeadPasses(fixture);

    const halting = metricsOf();
    const projector = startProjector(fixture, { projection, observer: halting.observer, retryDelaysMs: [5] });
    await expect(projector.done).rejects.toBeInstanceOf(ProjectionHaltedError);
    const restarted = metricsOf();

    for (const scrape of [await scrapeOf(halting.registry), await scrapeOf(restarted.registry)]) {
      expect(scrape['portal_projector_halted']).toBe(1);
      expect(scrape['portal_projector_dead_letters']).toBe(1);
      expect(scrape['portal_projector_lag_events']).toBeGreaterThanOrEqual(2);
      expect(scrape['portal_projector_leader']).toBe(0);
    }
  });
});
