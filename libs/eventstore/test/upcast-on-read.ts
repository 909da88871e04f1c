import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { START, type EventStore } from '@portal/domain';
import { newEvent, newMetadata, SubscriptionRecorder } from './event-store-test-kit.js';

/**
 * Every adapter decodes stored events through the domain's upcaster, so `readStream` and `subscribeAll`
 * hand out version 1 create events in today's shape and leave the rest as stored.
 */
export function upcastOnReadSuite(openStore: () => Promise<EventStore>): void {
  const v1Data = { id: randomUUID(), title: 'T', description: 'D', parentId: null, links: [] };
  const v2Data = { ...v1Data, orgId: randomUUID(), visibility: 'private', createdBy: randomUUID() };
  const upcast = { ...v1Data, orgId: null, visibility: 'public', createdBy: null };

  async function appendBoth(store: EventStore, streamId: string) {
    const v1 = {
      ...newEvent('CatalogCreated', v1Data),
      metadata: newMetadata({ schemaVersion: 1, actorId: null }),
    };
    const v2 = { ...newEvent('CatalogCreated', v2Data), metadata: newMetadata({ schemaVersion: 2 }) };
    const other = { ...newEvent('ThingHappened', v1Data), metadata: newMetadata({ schemaVersion: 1 }) };
    await store.append(streamId, [v1, v2, other], { expectedRevision: 'no_stream' });
    return [v1, v2, other];
  }

  it('readStream upcasts version 1 create events and keeps their stored metadata', async () => {
    const store = await openStore();
    const streamId = `catalog-${randomUUID()}`;
    const [v1] = await appendBoth(store, streamId);
    const events = await store.readStream(streamId);
    expect(events.map((event) => event.data)).toEqual([upcast, v2Data, v1Data]);
    expect(events[0]?.metadata).toEqual(v1?.metadata);
  });

  it('subscribeAll delivers the same shapes', async () => {
    const store = await openStore();
    const streamId = `catalog-${randomUUID()}`;
    const appended = await appendBoth(store, streamId);
    const recorder = new SubscriptionRecorder(
      store,
      { after: START },
      (event) => event.streamId === streamId,
    );
    try {
      await recorder.waitForIds(appended.map((event) => event.id));
      expect(recorder.events.map((event) => event.data)).toEqual([upcast, v2Data, v1Data]);
    } finally {
      await recorder.stop();
    }
  });
}
