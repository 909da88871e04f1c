import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DomainError,
  eventMetadata,
  noItemMetadata,
  streamIdOf,
  type EventStore,
  type PortalObjectEvent,
} from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import { ReferenceTree } from '../test/reference-tree.js';
import { freeStacItemId, liveItemOfPath, stacItemUuid, uuidV5 } from './stac-item-ids.js';

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

async function deleteItem(store: EventStore, id: string): Promise<void> {
  await append(store, id, { type: 'PortalObjectDeleted', data: { id, kind: 'item', recursive: false } });
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

/** A store with the reference tree over it: the read model's facts as of the last `settle`. */
let tree: ReferenceTree | null = null;
afterEach(async () => {
  await tree?.close();
  tree = null;
});

function world() {
  const store = new InMemoryEventStore();
  const facts = new ReferenceTree(store);
  tree = facts;
  const context = { store, tree: facts };
  return {
    store,
    settle: () => facts.awaitCommitted(),
    free: (parent: string, name: string) => freeStacItemId(context, parent, name),
    live: (parent: string, pathId: string) => liveItemOfPath(context, parent, pathId),
  };
}

async function refusalOf(run: Promise<unknown>): Promise<string> {
  const error = await run.then(() => null).catch((caught: unknown) => caught);
  return error instanceof DomainError ? error.code : 'ok';
}

/** An item named `scene` in another parent, moved into a new one: it keeps that parent's UUID. */
async function movedIn(store: EventStore): Promise<{ parent: string; moved: string }> {
  const [parent, elsewhere] = [randomUUID(), randomUUID()];
  const moved = stacItemUuid(elsewhere, 'scene', 1);
  await append(store, moved, registered(moved, elsewhere, 'scene'));
  await append(store, moved, {
    type: 'PortalObjectMoved',
    data: { id: moved, kind: 'item', fromParentId: elsewhere, toParentId: parent },
  });
  return { parent, moved };
}

describe('freeStacItemId', () => {
  it('gives the first generation, then refuses while it is live in the parent', async () => {
    const { store, settle, free } = world();
    const parent = randomUUID();
    await settle();
    const first = await free(parent, 'scene');
    expect(first).toBe(stacItemUuid(parent, 'scene', 1));
    await append(store, first, registered(first, parent, 'scene'));
    expect(await refusalOf(free(parent, 'scene'))).toBe('ALREADY_EXISTS');
  });

  it('passes the name on past an item deleted, and past one moved to another parent', async () => {
    const { store, settle, free } = world();
    const parent = randomUUID();
    const first = stacItemUuid(parent, 'scene', 1);
    await append(store, first, registered(first, parent, 'scene'));
    await deleteItem(store, first);
    await settle();
    const second = await free(parent, 'scene');
    expect(second).toBe(stacItemUuid(parent, 'scene', 2));
    await append(store, second, registered(second, parent, 'scene'));
    await append(store, second, {
      type: 'PortalObjectMoved',
      data: { id: second, kind: 'item', fromParentId: parent, toParentId: randomUUID() },
    });
    await settle();
    expect(await free(parent, 'scene')).toBe(stacItemUuid(parent, 'scene', 3));
  });

  it('passes over an item some client created under a UUID of the sequence with no name or another', async () => {
    const { store, settle, free } = world();
    const parent = randomUUID();
    const first = stacItemUuid(parent, 'scene', 1);
    const second = stacItemUuid(parent, 'scene', 2);
    await append(store, first, registered(first, parent));
    await append(store, second, registered(second, parent, 'other'));
    await settle();
    expect(await free(parent, 'scene')).toBe(stacItemUuid(parent, 'scene', 3));
  });

  it("refuses a name an item moved in holds, under its first parent's UUID", async () => {
    const { store, settle, free } = world();
    const { parent } = await movedIn(store);
    await settle();
    expect(await refusalOf(free(parent, 'scene'))).toBe('ALREADY_EXISTS');
  });

  it('gives the name when the read model still shows an item of it that the event store has deleted', async () => {
    const { store, settle, free } = world();
    const { parent, moved } = await movedIn(store);
    await settle();
    // The facts stay as of the settle: the delete below is not in them yet.
    await deleteItem(store, moved);
    expect(await free(parent, 'scene')).toBe(stacItemUuid(parent, 'scene', 1));
  });
});

describe('liveItemOfPath', () => {
  it('finds an item by its name or its UUID in the event store before the read model has it', async () => {
    const { store, settle, live } = world();
    const parent = randomUUID();
    await settle();
    const named = stacItemUuid(parent, 'scene', 1);
    const unnamed = randomUUID();
    await append(store, named, registered(named, parent, 'scene'));
    await append(store, unnamed, registered(unnamed, parent));
    expect(await live(parent, 'scene')).toBe(named);
    expect(await live(parent.toUpperCase(), 'scene')).toBe(named);
    expect(await live(parent, unnamed.toUpperCase())).toBe(unnamed);
    expect(await live(parent, named)).toBe(named);
  });

  it('finds none for another parent, a deleted item, a name not given, or an id of another kind', async () => {
    const { store, settle, live } = world();
    const parent = randomUUID();
    const first = stacItemUuid(parent, 'scene', 1);
    await append(store, first, registered(first, parent, 'scene'));
    await deleteItem(store, first);
    const elsewhere = randomUUID();
    await append(store, elsewhere, registered(elsewhere, randomUUID()));
    await settle();
    expect(await live(parent, 'scene')).toBeNull();
    expect(await live(parent, first)).toBeNull();
    expect(await live(parent, elsewhere)).toBeNull();
    expect(await live(parent, 'never-given')).toBeNull();
    expect(await live(parent, parent)).toBeNull();
  });

  it('finds the later generation that holds the name, and an item moved in under its name', async () => {
    const { store, settle, live } = world();
    const { parent, moved } = await movedIn(store);
    await settle();
    expect(await live(parent, 'scene')).toBe(moved);
    const other = randomUUID();
    const first = stacItemUuid(other, 'scene', 1);
    const second = stacItemUuid(other, 'scene', 2);
    await append(store, first, registered(first, other, 'scene'));
    await deleteItem(store, first);
    await append(store, second, registered(second, other, 'scene'));
    expect(await live(other, 'scene')).toBe(second);
  });
});
