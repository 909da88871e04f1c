import type { PortalObjectChanges, PortalObjectEvent } from '@portal/domain';

/** What one event changed, for an auditor: the `change` of a history entry. */
export type Change = Record<string, unknown>;

/** Both sides of every field an update changed; a field missing from `previous` had no value (null). */
export function fieldChanges(changes: PortalObjectChanges, previous: PortalObjectChanges): Change {
  const rendered: Change = {};
  const fields = Object.keys(changes) as (keyof PortalObjectChanges)[];
  for (const field of fields) {
    rendered[field] = { before: previous[field] ?? null, after: changes[field] ?? null };
  }
  return rendered;
}

/** The event's data without the object's own id (and kind), which the history's address already names. */
function withoutIdentity(data: { readonly id: string; readonly kind?: unknown }): Change {
  const { id: _id, kind: _kind, ...rest } = data;
  return rest;
}

/**
 * The change an event records. Updates show each field before and after; moves, visibility changes,
 * shares and deletes what they say; creates the fields the object was created with; item upload events
 * their data as recorded.
 */
export function changeOf(event: PortalObjectEvent): Change {
  switch (event.type) {
    case 'PortalObjectUpdated':
      return fieldChanges(event.data.changes, event.data.previous);
    case 'PortalObjectMoved':
      return { fromParentId: event.data.fromParentId, toParentId: event.data.toParentId };
    case 'VisibilityChanged':
      return { from: event.data.from, to: event.data.to };
    case 'ObjectShared':
      return {
        principal: event.data.principal,
        permission: event.data.permission,
        previousPermission: event.data.previous?.permission ?? null,
      };
    case 'ObjectUnshared':
      return { principal: event.data.principal, permission: event.data.permission };
    case 'PortalObjectDeleted':
      return { recursive: event.data.recursive };
    case 'CatalogCreated':
    case 'CollectionCreated':
    case 'ItemUploadStarted':
    case 'ItemRegistered':
    case 'UploadCompletionRequested':
    case 'AssetAttached':
    case 'UploadCompleted':
    case 'UploadFailed':
    case 'UploadAborted':
    case 'UploadExpired':
      return withoutIdentity(event.data);
    default:
      return event satisfies never;
  }
}
