import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DomainError,
  eventMetadata,
  noItemMetadata,
  streamIdOf,
  type EventStore,
  type PortalKind,
  type PortalObjectEvent,
} from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import {
  freeStacCollectionId,
  STAC_COLLECTION_NAMESPACE,
  stacCollectionUuid,
} from './stac-collection-ids.js';
import { uuidV5 } from './stac-item-ids.js';

const metadata = eventMetadata({
  actorId: randomUUID(),
  orgId: null,
  correlationId: randomUUID(),
  at: new Date(),
});

async function append(store: EventStore, kind: PortalKind, id: string, event: PortalObjectEvent) {
  await store.append(
    streamIdOf(kind, id),
    [{ id: randomUUID(), type: event.type, data: event.data, metadata }],
    { expectedRevision: 'any' },
  );
}

const access = { orgId: randomUUID(), visibility: 'private', createdBy: null } as const;

function collectionCreated(id: string, stacId?: string, parentId: string | null = null): PortalObjectEvent {
  return {
    type: 'CollectionCreated',
    data: {
      id,
      title: stacId ?? 'Unnamed',
      description: '',
      parentId,
      links: [],
      license: 'other',
      keywords: [],
      extent: null,
      ...(stacId !== undefined && { stacId }),
      ...access,
    },
  };
}

const deleted = (id: string): PortalObjectEvent => ({
  type: 'PortalObjectDeleted',
  data: { id, kind: 'collection', recursive: false },
});

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

describe('stacCollectionUuid', () => {
  it('is the name-based UUID in the service namespace, one per generation', () => {
    expect(stacCollectionUuid('sentinel-2-l2a', 1)).toBe(uuidV5(STAC_COLLECTION_NAMESPACE, 'sentinel-2-l2a'));
    const ids = new Set([
      stacCollectionUuid('sentinel-2-l2a', 1),
      stacCollectionUuid('sentinel-2-l2a', 2),
      stacCollectionUuid('landsat-c2-l2', 1),
    ]);
    expect(ids.size).toBe(3);
  });
});

describe('freeStacCollectionId', () => {
  it('gives the first generation to a new name, and refuses a name held (anywhere, by anyone)', async () => {
    const store = new InMemoryEventStore();
    const first = await freeStacCollectionId(store, 'sentinel-2-l2a');
    expect(first).toBe(stacCollectionUuid('sentinel-2-l2a', 1));
    await append(store, 'collection', first, collectionCreated(first, 'sentinel-2-l2a'));
    const error = await refusal(freeStacCollectionId(store, 'sentinel-2-l2a'));
    expect(error.code).toBe('ALREADY_EXISTS');
    expect(error.message).toContain('sentinel-2-l2a');
    // Another name is free still.
    expect(await freeStacCollectionId(store, 'sentinel-1-grd')).toBe(stacCollectionUuid('sentinel-1-grd', 1));
  });

  it('passes a deleted collection name on to the next generation, never reusing a UUID', async () => {
    const store = new InMemoryEventStore();
    const first = stacCollectionUuid('dem', 1);
    await append(store, 'collection', first, collectionCreated(first, 'dem'));
    await append(store, 'collection', first, deleted(first));
    const second = await freeStacCollectionId(store, 'dem');
    expect(second).toBe(stacCollectionUuid('dem', 2));
    await append(store, 'collection', second, collectionCreated(second, 'dem'));
    expect((await refusal(freeStacCollectionId(store, 'dem'))).code).toBe('ALREADY_EXISTS');
  });

  it('passes on the name of a collection deleted with a catalog above it (no event of its own)', async () => {
    const store = new InMemoryEventStore();
    const catalog = randomUUID();
    await append(store, 'catalog', catalog, {
      type: 'CatalogCreated',
      data: { id: catalog, title: 'Campaigns', description: '', parentId: null, links: [], ...access },
    });
    const first = stacCollectionUuid('campaign', 1);
    await append(store, 'collection', first, collectionCreated(first, 'campaign', catalog));
    expect((await refusal(freeStacCollectionId(store, 'campaign'))).code).toBe('ALREADY_EXISTS');
    await append(store, 'catalog', catalog, {
      type: 'PortalObjectDeleted',
      data: { id: catalog, kind: 'catalog', recursive: true },
    });
    expect(await freeStacCollectionId(store, 'campaign')).toBe(stacCollectionUuid('campaign', 2));
  });

  it('passes over a UUID of the sequence that a client chose for another object, of any kind', async () => {
    const store = new InMemoryEventStore();
    const first = stacCollectionUuid('squatted', 1);
    const second = stacCollectionUuid('squatted', 2);
    // A collection created under the first UUID by choice (no name), an item under the second.
    await append(store, 'collection', first, collectionCreated(first));
    await append(store, 'item', second, {
      type: 'ItemRegistered',
      data: {
        id: second,
        title: 'An item',
        description: null,
        parentId: randomUUID(),
        links: [],
        metadata: noItemMetadata,
        assets: [],
        ...access,
      },
    });
    expect(await freeStacCollectionId(store, 'squatted')).toBe(stacCollectionUuid('squatted', 3));
  });
});
