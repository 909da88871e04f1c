import { DomainError, portalKinds, type EventStore, type PortalKind } from '@portal/domain';
import { loadObject } from './object-repository.js';

// A STAC client may give a new item or collection a UUID of its own. Each kind has its own streams, so
// the event store's own check (`no_stream`) refuses a UUID only among objects of the same kind; the
// read model keys every object by its UUID alone, and would keep the first object of a UUID and drop the
// second. So a chosen UUID is refused when an object of another kind was ever created under it. Two
// creates of different kinds racing for one UUID are not covered: a client would have to choose both.

/** Whether an object of a kind other than `kind` was ever created under `id` (deleted ones count). */
export async function heldByAnotherKind(store: EventStore, id: string, kind: PortalKind): Promise<boolean> {
  const others = portalKinds.filter((candidate) => candidate !== kind);
  return (await loadObject(store, id, others)) !== null;
}

/** Refuses (409) a UUID a client chose for a new `kind` when an object of another kind holds or held it. */
export async function requireIdUnusedByOtherKinds(
  store: EventStore,
  id: string,
  kind: PortalKind,
): Promise<void> {
  if (await heldByAnotherKind(store, id, kind)) {
    throw new DomainError('ALREADY_EXISTS', `${id} exists already, as the id of another object`);
  }
}
