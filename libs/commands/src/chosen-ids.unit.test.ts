import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DomainError, eventMetadata, streamIdOf } from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import { requireIdUnusedByOtherKinds } from './chosen-ids.js';

const metadata = eventMetadata({
  actorId: randomUUID(),
  orgId: null,
  correlationId: randomUUID(),
  at: new Date(),
});

describe('requireIdUnusedByOtherKinds', () => {
  it('refuses a UUID another kind holds, and takes one only its own kind ever held', async () => {
    const store = new InMemoryEventStore();
    const id = randomUUID();
    const data = {
      id,
      title: 'C',
      description: '',
      parentId: null,
      links: [],
      orgId: null,
      visibility: 'public',
      createdBy: null,
    };
    await store.append(
      streamIdOf('catalog', id),
      [{ id: randomUUID(), type: 'CatalogCreated', data, metadata }],
      {
        expectedRevision: 'no_stream',
      },
    );
    const refused: unknown = await requireIdUnusedByOtherKinds(store, id, 'item').catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe('ALREADY_EXISTS');
    await expect(requireIdUnusedByOtherKinds(store, id, 'catalog')).resolves.toBeUndefined();
    await expect(requireIdUnusedByOtherKinds(store, randomUUID(), 'collection')).resolves.toBeUndefined();
  });
});
