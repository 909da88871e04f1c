import type { RecordedEvent } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { asPortalObjectEvent } from './events.js';

function recorded(type: string, data: unknown): RecordedEvent {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    streamId: 'catalog-1',
    revision: 0n,
    position: { commit: 1n, prepare: 1n },
    type,
    data,
    metadata: {
      actorId: null,
      orgId: null,
      correlationId: 'c',
      causationId: null,
      requestId: null,
      occurredAt: '2025-01-01T00:00:00.000Z',
      schemaVersion: 1,
    },
  };
}

describe('asPortalObjectEvent', () => {
  it.each([
    'CatalogCreated',
    'CollectionCreated',
    'PortalObjectUpdated',
    'PortalObjectMoved',
    'PortalObjectDeleted',
    'ItemUploadStarted',
    'UploadCompletionRequested',
    'AssetAttached',
    'UploadCompleted',
    'UploadFailed',
    'UploadAborted',
    'UploadExpired',
    'VisibilityChanged',
    'ObjectShared',
    'ObjectUnshared',
  ])('follows %s', (type) => {
    expect(asPortalObjectEvent(recorded(type, { id: 'x' }))).toEqual({ type, data: { id: 'x' } });
  });

  it.each(['OrganizationCreated', 'assetattached', 'catalogcreated', ''])(
    'leaves %j to other read models',
    (type) => {
      expect(asPortalObjectEvent(recorded(type, {}))).toBeNull();
    },
  );
});
