import {
  MAX_DEPTH,
  portalObjectDecider,
  streamIdOf,
  type EventStore,
  type ObjectAccess,
  type ParentLookup,
  type PortalKind,
  type PortalObjectState,
} from '@portal/domain';
import { loadStream, type LoadedStream } from './handler/load-stream.js';
import { kindsToRead, rememberKind } from './known-kinds.js';

export interface LoadedObject {
  readonly id: string;
  readonly kind: PortalKind;
  readonly streamId: string;
  readonly state: Exclude<PortalObjectState, { status: 'absent' }>;
  /** Revision of the stream's last event: the `ETag` and the expected revision of the next append. */
  readonly revision: bigint;
  /** The stream as read: a command on the object decides on it first (`handleCommand`'s `initial`). */
  readonly stream: LoadedStream<PortalObjectState>;
}

/** The object a stream of a known kind holds; `null` while the stream does not exist. */
export function objectOf(
  id: string,
  kind: PortalKind,
  stream: LoadedStream<PortalObjectState>,
): LoadedObject | null {
  const { state, revision } = stream;
  if (state.status === 'absent' || revision === null) return null;
  return { id, kind, streamId: stream.streamId, state, revision, stream };
}

/**
 * Loads an object from its own stream. The kind is not known from an id alone, so the streams of
 * every candidate kind are read at once (only one of them can exist because ids are fresh UUIDs),
 * unless this process has found the object before (`known-kinds.ts`).
 */
export async function loadObject(
  store: EventStore,
  id: string,
  candidates: readonly PortalKind[] = ['catalog', 'collection', 'item'],
): Promise<LoadedObject | null> {
  const kinds = kindsToRead(id, candidates);
  const streams = await Promise.all(
    kinds.map((kind) => loadStream(store, streamIdOf(kind, id), portalObjectDecider)),
  );
  for (const [index, stream] of streams.entries()) {
    const kind = kinds[index];
    const object = kind === undefined ? null : objectOf(id, kind, stream);
    if (object) {
      rememberKind(id, object.kind);
      return object;
    }
  }
  return null;
}

/** Where an object sits, as the event store has it: what every command on it needs to know. */
export interface Placement {
  /** An ancestor carries a tombstone (or is missing): a recursive delete above took the object along. */
  readonly ancestorDeleted: boolean;
  /** The object itself or an ancestor carries a tombstone: commands refuse it as gone. */
  readonly deleted: boolean;
  /**
   * The access facts of every object from the root level down to this one, for `grantsOf`; tombstones
   * keep theirs, so a deleted object is refused as missing to whoever could not read it. `null` only when
   * an ancestor's stream is missing (a broken store): nothing to grant anything on.
   */
  readonly accessPath: readonly ObjectAccess[] | null;
}

/** A prospective parent, with what the permission check needs beside the tree rules. */
export interface FoundParent {
  readonly lookup: ParentLookup;
  /** The parent's access path, deleted or not; `null` when it (or an ancestor's stream) is missing. */
  readonly accessPath: readonly ObjectAccess[] | null;
}

interface Ancestry {
  /** Ids from the root level down to the first parent. */
  readonly ancestorIds: string[];
  /** An ancestor carries a tombstone or is missing. */
  readonly deleted: boolean;
  /** The ancestors' access, root level first, tombstones' included; `null` when one is missing. */
  readonly access: ObjectAccess[] | null;
}

/**
 * Walks the parent chain through the event store (never the read models, which may lag), so hierarchy
 * and permission rules are checked against the truth. The first parent may be a catalog or a
 * collection (an item's); every ancestor above a collection or catalog is a catalog.
 */
async function walkAncestors(store: EventStore, firstParentId: string | null): Promise<Ancestry> {
  const ancestorIds: string[] = [];
  const access: ObjectAccess[] = [];
  let deleted = false;
  let current = firstParentId;
  while (current !== null && ancestorIds.length <= MAX_DEPTH) {
    const kinds: PortalKind[] = ancestorIds.length === 0 ? ['catalog', 'collection'] : ['catalog'];
    const ancestor = await loadObject(store, current, kinds);
    ancestorIds.unshift(current);
    if (!ancestor) return { ancestorIds, deleted: true, access: null };
    access.unshift(ancestor.state.access);
    deleted ||= ancestor.state.status === 'deleted';
    current = ancestor.state.parentId;
  }
  return { ancestorIds, deleted, access };
}

function pathTo(above: Ancestry, own: ObjectAccess): readonly ObjectAccess[] | null {
  return above.access === null ? null : [...above.access, own];
}

/**
 * A prospective parent as the event store has it. An item is found too, so the decider can say that
 * an item holds no children rather than that the parent does not exist.
 */
export async function lookupParent(store: EventStore, parentId: string): Promise<FoundParent> {
  const parent = await loadObject(store, parentId);
  if (!parent) return { lookup: { found: false, id: parentId }, accessPath: null };
  const above = await walkAncestors(store, parent.state.parentId);
  return {
    lookup: {
      found: true,
      id: parentId,
      kind: parent.kind,
      depth: above.ancestorIds.length + 1,
      ancestorIds: above.ancestorIds,
      deleted: parent.state.status === 'deleted' || above.deleted,
      orgId: parent.state.access.orgId,
    },
    accessPath: pathTo(above, parent.state.access),
  };
}

/**
 * Whether a tombstone lies above `parentId` (or an ancestor's stream is missing): a recursive delete
 * writes one tombstone at the top and buries the subtree below it.
 */
export async function hasDeletedAncestor(store: EventStore, parentId: string | null): Promise<boolean> {
  return (await walkAncestors(store, parentId)).deleted;
}

/** The object's ancestry: whether it or a recursive delete above it made it gone, and its access path. */
export async function placementOf(store: EventStore, object: LoadedObject): Promise<Placement> {
  const above = await walkAncestors(store, object.state.parentId);
  return {
    ancestorDeleted: above.deleted,
    deleted: object.state.status === 'deleted' || above.deleted,
    accessPath: pathTo(above, object.state.access),
  };
}
