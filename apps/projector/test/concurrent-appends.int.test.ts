import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogCreated, streamOf, toAppend } from './support/portal-events.js';
import {
  openFixture,
  startProjector,
  waitUntilCaughtUp,
  type ProjectorFixture,
} from './support/projector-fixture.js';

// How fast the projector goes is bench/replay.ts's to measure; this test checks what it builds.
const eventCount = 2_000;
const writers = 8;

let fixture: ProjectorFixture;

beforeEach(async () => {
  fixture = await openFixture('concurrent-appends');
});

afterEach(async () => {
  await fixture.close();
});

async function appendCatalogs(count: number): Promise<string[]> {
  const titles: string[] = [];
  const writer = async (): Promise<void> => {
    while (titles.length < count) {
      const title = `Catalog ${titles.length + 1}`;
      titles.push(title);
      const event = catalogCreated({ title });
      await fixture.store.append(streamOf(event), [toAppend(event)], { expectedRevision: 'no_stream' });
    }
  };
  await Promise.all(Array.from({ length: writers }, writer));
  return titles;
}

describe('a history appended by concurrent writers', () => {
  it(`projects all ${eventCount} creates, each exactly once`, async () => {
    const titles = await appendCatalogs(eventCount);
    const projector = startProjector(fixture, { batchSize: 500 });
    await waitUntilCaughtUp(fixture);
    await projector.stop();

    const rows = await fixture.pool.query<{ title: string }>(
      `SELECT title FROM "${fixture.readSchema}".portal_objects`,
    );
    expect(rows.rows.map((row) => row.title).sort()).toEqual([...titles].sort());
  });
});
