import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { fromEsdbRecordedEvent } from '../src/eventstoredb/mapping.js';
import { InMemoryEventStore } from '../src/index.js';
import { newMetadata } from './event-store-test-kit.js';
import { upcastOnReadSuite } from './upcast-on-read.js';

describe('InMemoryEventStore upcasts on read', () => {
  upcastOnReadSuite(() => Promise.resolve(new InMemoryEventStore()));
});

describe('EventStoreDB mapping upcasts on read', () => {
  it('gives a version 1 create event the access of an object from before identity', () => {
    const data = { id: randomUUID(), title: 'T', description: 'D', parentId: null, links: [] };
    const recorded = fromEsdbRecordedEvent({
      streamId: `catalog-${data.id}`,
      id: randomUUID(),
      isJson: true,
      revision: 0n,
      type: 'CatalogCreated',
      created: new Date(),
      data,
      metadata: { ...newMetadata({ schemaVersion: 1, actorId: null }) },
      position: { commit: 1n, prepare: 1n },
    });
    expect(recorded.data).toEqual({ ...data, orgId: null, visibility: 'public', createdBy: null });
  });
});
