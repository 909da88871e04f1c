import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DomainError,
  eventMetadata,
  noItemMetadata,
  streamIdOf,
  type EventStore,
  type PortalObjectEvent,
} from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import { freeStacItemId, stacItemUuid, uuidV5 } from './stac-item-ids.js';

const metadata = eventMetadata({
  actorId: randomUUID(),
  orgId: null,
  correlationId: randomUUID(),
  at: new Date(),
});

async function append(store: EventStore, id: string, event: PortalObjectEvent): Promise<void> {
  await store.append(
    streamIdOf('item', id),
    [{ id: randomUUID(), type: event.type, data: event.data, metadata }],
    {
      expectedRevision: 'any',
    },
  );
}

function registered(id: string, parentId: string, stacId?: string): PortalObjectEvent {
  return {
    type: 'ItemRegistered',
    data: {
      id,
      title: stacId ?? 'Unnamed',
      description: null,
      parentId,
      links: [],
      metadata: noItemMetadata,
      assets: [],
      ...(stacId !== undefined && { stacId }),
      orgId: null,
      visibility: 'public',
      createdBy: null,
    },
  };
}

describe('uuidV5', () => {
  it('gives the name-based UUIDs of RFC 9562', () => {
    // The DNS namespace's UUID of www.example.com, as Python's uuid.uuid5 and every other library give it.
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('tells parents, names and generations apart', () => {
    const parent = randomUUID();
    const ids = new Set([
      stacItemUuid(parent, 'S2A_1', 1),
      stacItemUuid(parent, 'S2A_1', 2),
      stacItemUuid(parent, 'S2A_2', 1),
      stacItemUuid(randomUUID(), 'S2A_1', 1),
    ]);
    expect(ids.size).toBe(4);
    expect(stacItemUuid(parent, 'S2A_1', 1)).toBe(stacItemUuid(parent.toUpperCase(), 'S2A_1', 1));
  });
});

describe('freeStacItemId', () => {
  it('gives the first generation, then refuses while it is live in the parent', async () => {
    const store = new InMemoryEventStore();
    const parent = randomUUID();
    const first = await freeStacItemId(store, parent, 'scene');
    expect(first).toBe(stacItemUuid(parent, 'scene', 1));
    await append(store, first, registered(first, parent, 'scene'));
    const refused = await freeStacItemId(store, parent, 'scene').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe('ALREADY_EXISTS');
  });

  it('passes the name on past an item deleted, and past one moved to another parent', async () => {
    const store = new InMemoryEventStore();
    const parent = randomUUID();
    const first = stacItemUuid(parent, 'scene', 1);
    await append(store, first, registered(first, parent, 'scene'));
    await append(store, first, {
      type: 'PortalObjectDeleted',
      data: { id: first, kind: 'item', recursive: false },
    });
    const second = await freeStacItemId(store, parent, 'scene');
    expect(second).toBe(stacItemUuid(parent, 'scene', 2));
    await append(store, second, registered(second, parent, 'scene'));
    await append(store, second, {
      type: 'PortalObjectMoved',
      data: { id: second, kind: 'item', fromParentId: parent, toParentId: randomUUID() },
    });
    expect(await freeStacItemId(store, parent, 'scene')).toBe(stacItemUuid(parent, 'scene', 3));
  });

  it('passes over an item some client created under a UUID of the sequence with no name or another', async () => {
    const store = new InMemoryEventStore();
    const parent = randomUUID();
    const first = stacItemUuid(parent, 'scene', 1);
    const second = stacItemUuid(parent, 'scene', 2);
    await append(store, first, registered(first, parent));
    await append(store, second, registered(second, parent, 'other'));
    expect(await freeStacItemId(store, parent, 'scene')).toBe(stacItemUuid(parent, 'scene', 3));
  });
});
