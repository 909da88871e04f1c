import { randomUUID } from 'node:crypto';
import {
  EVENT_SCHEMA_VERSION,
  legacyAccess,
  type CatalogCreated,
  type CollectionCreated,
  type CreatedAccess,
  type EventMetadata,
  type EventToAppend,
  type ObjectShared,
  type ObjectUnshared,
  type PortalObjectDeleted,
  type PortalKind,
  type PortalObjectEvent,
  type PortalObjectMoved,
  type PortalObjectUpdated,
  type Position,
  type RecordedEvent,
  type VisibilityChanged,
} from '@portal/domain';

export function metadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    actorId: randomUUID(),
    orgId: randomUUID(),
    correlationId: randomUUID(),
    causationId: null,
    requestId: null,
    occurredAt: '2025-01-01T00:00:00.000Z',
    schemaVersion: EVENT_SCHEMA_VERSION,
    ...overrides,
  };
}

/** Unless a test gives them: no organization, public, no creator (as before identity existed). */
export const noAccess: CreatedAccess = {
  orgId: legacyAccess.orgId,
  visibility: legacyAccess.visibility,
  createdBy: legacyAccess.createdBy,
};

export function catalogCreated(data: Partial<CatalogCreated['data']> & { title: string }): CatalogCreated {
  return {
    type: 'CatalogCreated',
    data: { id: randomUUID(), description: '', parentId: null, links: [], ...noAccess, ...data },
  };
}

export function collectionCreated(
  data: Partial<CollectionCreated['data']> & { title: string },
): CollectionCreated {
  return {
    type: 'CollectionCreated',
    data: {
      id: randomUUID(),
      description: '',
      parentId: null,
      links: [],
      license: 'other',
      keywords: [],
      extent: null,
      ...noAccess,
      ...data,
    },
  };
}

export function updated(data: PortalObjectUpdated['data']): PortalObjectUpdated {
  return { type: 'PortalObjectUpdated', data };
}

export function moved(data: PortalObjectMoved['data']): PortalObjectMoved {
  return { type: 'PortalObjectMoved', data };
}

export function deleted(data: PortalObjectDeleted['data']): PortalObjectDeleted {
  return { type: 'PortalObjectDeleted', data };
}

export function visibilityChanged(data: VisibilityChanged['data']): VisibilityChanged {
  return { type: 'VisibilityChanged', data };
}

export function shared(data: ObjectShared['data']): ObjectShared {
  return { type: 'ObjectShared', data };
}

export function unshared(data: ObjectUnshared['data']): ObjectUnshared {
  return { type: 'ObjectUnshared', data };
}

function kindOf(event: PortalObjectEvent): PortalKind {
  if (event.type === 'CatalogCreated') return 'catalog';
  if (event.type === 'CollectionCreated') return 'collection';
  // Only the events every kind shares name the kind; the rest are an item's own.
  return 'kind' in event.data ? event.data.kind : 'item';
}

export function streamOf(event: PortalObjectEvent): string {
  return `${kindOf(event)}-${event.data.id}`;
}

export function toAppend(
  event: { type: string; data: unknown },
  meta: EventMetadata = metadata(),
): EventToAppend {
  return { id: randomUUID(), type: event.type, data: event.data, metadata: meta };
}

/**
 * Recorded events without a store, for read-model tests that call the handlers directly:
 * revisions per stream and positions in append order, as a store would assign them.
 */
export class RecordedEventLog {
  private readonly revisions = new Map<string, bigint>();
  private next = 0n;

  record(
    event: { type: string; data: unknown },
    streamId: string,
    meta: EventMetadata = metadata(),
  ): RecordedEvent {
    const revision = (this.revisions.get(streamId) ?? -1n) + 1n;
    this.revisions.set(streamId, revision);
    this.next += 1n;
    const position: Position = { commit: this.next, prepare: this.next };
    return { ...toAppend(event, meta), streamId, revision, position };
  }
}
