import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogCreated, streamOf, toAppend } from './support/portal-events.js';
import {
  openFixture,
  startProjector,
  waitUntilCaughtUp,
  type ProjectorFixture,
} from './support/projector-fixture.js';

/** 2,000 by default so the suite stays quick; `PROJECTOR_THROUGHPUT_EVENTS=20000` for the measurement. */
const eventCount = Number(process.env.PROJECTOR_THROUGHPUT_EVENTS ?? 2_000);
const batchSize = Number(process.env.PROJECTOR_THROUGHPUT_BATCH ?? 500);

let fixture: ProjectorFixture;

beforeEach(async () => {
  fixture = await openFixture('throughput');
});

afterEach(async () => {
  await fixture.close();
});

async function appendCatalogs(count: number): Promise<void> {
  let next = 0;
  const writer = async (): Promise<void> => {
    while (next < count) {
      next += 1;
      const event = catalogCreated({ title: `Catalog ${next}` });
      await fixture.store.append(streamOf(event), [toAppend(event)], { expectedRevision: 'no_stream' });
    }
  };
  await Promise.all(Array.from({ length: 8 }, writer));
}

describe('projection throughput', () => {
  it(`replays ${eventCount} CatalogCreated events`, { timeout: 600_000 }, async () => {
    await appendCatalogs(eventCount);
    const startedAt = performance.now();
    const projector = startProjector(fixture, { batchSize });
    await waitUntilCaughtUp(fixture, { timeoutMs: 540_000 });
    const seconds = (performance.now() - startedAt) / 1000;
    await projector.stop();

    const rows = await fixture.pool.query<{ count: string }>(
      `SELECT count(*)::text AS count FROM "${fixture.readSchema}".portal_objects`,
    );
    expect(Number(rows.rows[0]?.count)).toBe(eventCount);
    const eventsPerSecond = Math.round(eventCount / seconds);
    process.stdout.write(
      `projector throughput: ${eventCount} CatalogCreated in ${seconds.toFixed(1)} s = ${eventsPerSecond} events/s (batch ${batchSize})\n`,
    );
    expect(eventsPerSecond).toBeGreaterThan(50);
  });
});
