import { randomUUID } from 'node:crypto';
import { comparePositions, START, type Position, type RecordedEvent } from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import { describe, expect, it } from 'vitest';
import { replayUntil } from './replay.js';

async function storeWith(count: number): Promise<InMemoryEventStore> {
  const store = new InMemoryEventStore();
  for (let i = 0; i < count; i += 1) {
    await store.append(
      `catalog-${randomUUID()}`,
      [
        {
          id: randomUUID(),
          type: 'CatalogCreated',
          data: { n: i },
          metadata: {
            actorId: null,
            orgId: null,
            correlationId: randomUUID(),
            causationId: null,
            requestId: null,
            occurredAt: '2025-01-01T00:00:00.000Z',
            schemaVersion: 1,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
  }
  return store;
}

function collector(): {
  seen: RecordedEvent[];
  apply: (batch: readonly RecordedEvent[]) => Promise<Position>;
} {
  const seen: RecordedEvent[] = [];
  return {
    seen,
    apply: (batch) => {
      seen.push(...batch);
      const last = batch.at(-1);
      return last ? Promise.resolve(last.position) : Promise.reject(new Error('empty batch'));
    },
  };
}

describe('replayUntil', () => {
  it('feeds every event up to the head in order, in batches, then stops instead of waiting for more', async () => {
    const store = await storeWith(23);
    const head = await store.headPosition();
    const { seen, apply } = collector();

    const progress = await replayUntil(store, { after: START, until: head, batchSize: 5 }, apply);

    expect(progress.events).toBe(23);
    expect(comparePositions(progress.position, head)).toBe(0);
    expect(seen.map((event) => (event.data as { n: number }).n)).toEqual(
      Array.from({ length: 23 }, (_, i) => i),
    );
  });

  it('returns at once when already at the head, without subscribing', async () => {
    const store = await storeWith(3);
    const head = await store.headPosition();
    const { seen, apply } = collector();

    const progress = await replayUntil(store, { after: head, until: head, batchSize: 5 }, apply);

    expect(progress).toEqual({ position: head, events: 0 });
    expect(seen).toEqual([]);
  });

  it('replays nothing from an empty store', async () => {
    const store = new InMemoryEventStore();
    const { apply } = collector();
    expect(
      await replayUntil(store, { after: START, until: await store.headPosition(), batchSize: 5 }, apply),
    ).toEqual({
      position: START,
      events: 0,
    });
  });
});
