import {
  foldState,
  MAX_DEPTH,
  streamIdOf,
  type EventStore,
  type ParentLookup,
  type PortalKind,
  type PortalObjectEvent,
  type PortalObjectState,
} from '@portal/domain';

export interface LoadedObject {
  readonly id: string;
  readonly kind: PortalKind;
  readonly streamId: string;
  readonly state: Exclude<PortalObjectState, { status: 'absent' }>;
  /** Revision of the stream's last event: the `ETag` and the expected revision of the next append. */
  readonly revision: bigint;
}

/**
 * Loads an object from its own stream. The kind is not known from an id alone, so the streams of
 * every candidate kind are read at once; only one of them can exist because ids are fresh UUIDs.
 */
export async function loadObject(
  store: EventStore,
  id: string,
  kinds: readonly PortalKind[] = ['catalog', 'collection', 'item'],
): Promise<LoadedObject | null> {
  const streams = await Promise.all(kinds.map((kind) => store.readStream(streamIdOf(kind, id))));
  for (const [index, events] of streams.entries()) {
    const kind = kinds[index];
    const last = events.at(-1);
    if (!kind || !last) continue;
    const state = foldState(events as unknown as readonly PortalObjectEvent[]);
    if (state.status === 'absent') continue;
    return { id, kind, streamId: streamIdOf(kind, id), state, revision: last.revision };
  }
  return null;
}

/**
 * Walks the parent chain through the event store (never the read models, which may lag), so hierarchy
 * rules are checked against the truth. The first parent may be a catalog or a collection (an item's);
 * every ancestor above a collection or catalog is a catalog.
 */
async function walkAncestors(
  store: EventStore,
  firstParentId: string | null,
): Promise<{ ancestorIds: string[]; deleted: boolean }> {
  const ancestorIds: string[] = [];
  let deleted = false;
  let current = firstParentId;
  while (current !== null && ancestorIds.length <= MAX_DEPTH) {
    const kinds: PortalKind[] = ancestorIds.length === 0 ? ['catalog', 'collection'] : ['catalog'];
    const ancestor = await loadObject(store, current, kinds);
    ancestorIds.unshift(current);
    if (!ancestor) {
      deleted = true;
      break;
    }
    deleted ||= ancestor.state.status === 'deleted';
    current = ancestor.state.parentId;
  }
  return { ancestorIds, deleted };
}

export async function lookupParent(store: EventStore, parentId: string): Promise<ParentLookup> {
  const parent = await loadObject(store, parentId, ['catalog', 'collection']);
  if (!parent) return { found: false, id: parentId };
  const above = await walkAncestors(store, parent.state.parentId);
  return {
    found: true,
    id: parentId,
    kind: parent.kind,
    depth: above.ancestorIds.length + 1,
    ancestorIds: above.ancestorIds,
    deleted: parent.state.status === 'deleted' || above.deleted,
  };
}

/** Whether a recursive delete above the object tombstoned it along with its subtree. */
export async function isAncestorDeleted(store: EventStore, object: LoadedObject): Promise<boolean> {
  return (await walkAncestors(store, object.state.parentId)).deleted;
}
