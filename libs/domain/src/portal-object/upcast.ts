import type { RecordedEvent } from '../event-store.js';
import type { EventMetadata } from '../metadata.js';
import type { CreatedAccess, PortalObjectEventType } from './events.js';

const createEventTypes: readonly string[] = [
  'CatalogCreated',
  'CollectionCreated',
  'ItemUploadStarted',
] satisfies readonly PortalObjectEventType[];

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The data of a stored portal-object event in today's shape. Stored events never change, so readers
 * see old ones through this. Version 1 create events came before identity: the object belongs to no
 * organization, is public, and has no creator (schema version 1 recorded no actor or organization, so
 * those metadata fields are `null` there). Fields the data already has are kept, so upcasting twice
 * changes nothing. Every other event is returned as stored.
 */
export function upcastPortalObjectEvent(type: string, data: unknown, metadata: EventMetadata): unknown {
  if (metadata.schemaVersion >= 2 || !createEventTypes.includes(type) || !isJsonObject(data)) return data;
  const access: CreatedAccess = {
    orgId: metadata.orgId ?? null,
    visibility: 'public',
    createdBy: metadata.actorId ?? null,
  };
  return { ...access, ...data };
}

/**
 * What the event store adapters apply to every event they decode (`readStream`, `subscribeAll`), so
 * the API's folds, the projector and the upload worker all see the current shapes. The metadata keeps
 * the version the event was written with: an auditor sees what was recorded, and when.
 */
export function upcastRecordedEvent(event: RecordedEvent): RecordedEvent {
  const data = upcastPortalObjectEvent(event.type, event.data, event.metadata);
  return data === event.data ? event : { ...event, data };
}
