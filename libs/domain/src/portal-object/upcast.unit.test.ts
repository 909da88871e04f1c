import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../event-store.js';
import type { EventMetadata } from '../metadata.js';
import { newId } from './decider-test-kit.js';
import { upcastPortalObjectEvent, upcastRecordedEvent } from './upcast.js';

function metadata(schemaVersion: number, overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    actorId: null,
    orgId: null,
    correlationId: newId(),
    causationId: null,
    requestId: null,
    occurredAt: '2026-01-01T00:00:00.000Z',
    schemaVersion,
    ...overrides,
  };
}

const v1Catalog = { id: 'c', title: 'T', description: 'D', parentId: null, links: [] };

describe('upcastPortalObjectEvent', () => {
  it('makes version 1 create events public, of no organization, by no one', () => {
    for (const type of ['CatalogCreated', 'CollectionCreated', 'ItemUploadStarted']) {
      expect(upcastPortalObjectEvent(type, v1Catalog, metadata(1))).toStrictEqual({
        ...v1Catalog,
        orgId: null,
        visibility: 'public',
        createdBy: null,
      });
    }
  });

  it('takes the organization and actor a version 1 metadata names, if any', () => {
    const orgId = newId();
    const actorId = newId();
    expect(
      upcastPortalObjectEvent('CatalogCreated', v1Catalog, metadata(1, { orgId, actorId })),
    ).toMatchObject({ orgId, visibility: 'public', createdBy: actorId });
  });

  it('leaves version 2 events, other event types and fields already present as stored', () => {
    const v2 = { ...v1Catalog, orgId: newId(), visibility: 'private', createdBy: newId() };
    expect(upcastPortalObjectEvent('CatalogCreated', v2, metadata(2))).toBe(v2);
    const update = { id: 'c', kind: 'catalog', changes: {}, previous: {} };
    expect(upcastPortalObjectEvent('PortalObjectUpdated', update, metadata(1))).toBe(update);
    expect(upcastPortalObjectEvent('ThingCreated', v1Catalog, metadata(1))).toBe(v1Catalog);
    expect(upcastPortalObjectEvent('CatalogCreated', v2, metadata(1))).toStrictEqual(v2);
    expect(upcastPortalObjectEvent('CatalogCreated', null, metadata(1))).toBeNull();
  });

  it('is idempotent', () => {
    const once = upcastPortalObjectEvent('CollectionCreated', v1Catalog, metadata(1));
    expect(upcastPortalObjectEvent('CollectionCreated', once, metadata(1))).toStrictEqual(once);
  });
});

describe('upcastRecordedEvent', () => {
  const recorded = (type: string, data: unknown, schemaVersion: number): RecordedEvent => ({
    id: newId(),
    streamId: `catalog-${newId()}`,
    revision: 0n,
    position: { commit: 1n, prepare: 1n },
    type,
    data,
    metadata: metadata(schemaVersion),
  });

  it('returns the same event when nothing changes, and keeps the stored metadata otherwise', () => {
    const current = recorded(
      'CatalogCreated',
      { ...v1Catalog, orgId: null, visibility: 'org', createdBy: null },
      2,
    );
    expect(upcastRecordedEvent(current)).toBe(current);
    const old = recorded('CatalogCreated', v1Catalog, 1);
    const upcast = upcastRecordedEvent(old);
    expect(upcast).toStrictEqual({
      ...old,
      data: { ...v1Catalog, orgId: null, visibility: 'public', createdBy: null },
    });
    expect(upcast.metadata.schemaVersion).toBe(1);
  });
});
