import type { PortalObjectEvent, PortalObjectEventType, RecordedEvent } from '@portal/domain';

const portalObjectEventTypes: ReadonlySet<string> = new Set<PortalObjectEventType>([
  'CatalogCreated',
  'CollectionCreated',
  'PortalObjectUpdated',
  'PortalObjectMoved',
  'PortalObjectDeleted',
  'ItemUploadStarted',
  'ItemRegistered',
  'UploadCompletionRequested',
  'AssetAttached',
  'UploadCompleted',
  'UploadFailed',
  'UploadAborted',
  'UploadExpired',
  'VisibilityChanged',
  'ObjectShared',
  'ObjectUnshared',
] satisfies readonly PortalObjectEventType[]);

/**
 * The stored event as the domain event it is, or `null` for a type this read model does not follow
 * (organizations, users). The shape is trusted: only the domain's deciders append these types, and the
 * event store adapters upcast older shapes on read (`upcastRecordedEvent`: a create from before identity
 * arrives with its access facts).
 */
export function asPortalObjectEvent(recorded: RecordedEvent): PortalObjectEvent | null {
  if (!portalObjectEventTypes.has(recorded.type)) return null;
  return { type: recorded.type, data: recorded.data } as PortalObjectEvent;
}
