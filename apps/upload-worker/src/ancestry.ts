import {
  foldState,
  MAX_DEPTH,
  streamIdOf,
  type EventStore,
  type PortalKind,
  type PortalObjectEvent,
} from '@portal/domain';

/**
 * Whether a tombstone lies above `parentId`, read from the event store: a recursive delete writes one
 * tombstone at the top and buries the subtree below it. An item's parent is a collection or a catalog;
 * everything above that is a catalog. A missing ancestor counts as deleted, as the API treats it.
 */
export async function hasDeletedAncestor(store: EventStore, parentId: string | null): Promise<boolean> {
  let current = parentId;
  for (let depth = 0; current !== null && depth <= MAX_DEPTH; depth += 1) {
    const kinds: PortalKind[] = depth === 0 ? ['collection', 'catalog'] : ['catalog'];
    const streams = await Promise.all(kinds.map((kind) => store.readStream(streamIdOf(kind, current ?? ''))));
    const events = streams.find((stream) => stream.length > 0);
    if (!events) return true;
    const state = foldState(events as unknown as readonly PortalObjectEvent[]);
    if (state.status !== 'live') return true;
    current = state.parentId;
  }
  return false;
}
