import type { ObjectAccess } from '../access/object-access.js';
import { accessOfCreated, evolveAccess } from './access-state.js';
import type { PortalObjectChanges, PortalObjectEvent } from './events.js';
import { openUploadStatuses } from './item-events.js';
import { evolveItem, type LiveItem } from './item-state.js';
import type { CollectionExtent, Link, PortalKind } from './types.js';
import { unreachable } from './unreachable.js';

export interface AbsentPortalObject {
  readonly status: 'absent';
}

export interface LiveFields {
  readonly status: 'live';
  readonly id: string;
  readonly title: string;
  /** Only items may lack a description. */
  readonly description: string | null;
  /** `null` at root level. */
  readonly parentId: string | null;
  readonly links: readonly Link[];
  /** Its organization, visibility, creator and shares; the ancestors' add to it (`grantsOf`). */
  readonly access: ObjectAccess;
}

export interface LiveCatalog extends LiveFields {
  readonly kind: 'catalog';
  readonly description: string;
}

export interface LiveCollection extends LiveFields {
  readonly kind: 'collection';
  readonly description: string;
  readonly license: string;
  readonly keywords: readonly string[];
  /** `null`: the projector computes it from the ready items below. */
  readonly extent: CollectionExtent | null;
  /** The collection's STAC id, when its client named it (docs/stac.md, "Collection ids"); set once. */
  readonly stacId: string | null;
}

export type LivePortalObject = LiveCatalog | LiveCollection | LiveItem;

/** A tombstone: the history stays, but no command applies any more. */
export interface DeletedPortalObject {
  readonly status: 'deleted';
  readonly id: string;
  readonly kind: PortalKind;
  readonly parentId: string | null;
  /**
   * Who could see it when it was deleted. No command applies any more, but a command on it must still
   * answer a caller who could never read it exactly as for an unknown id, and tell one who could that
   * it was deleted: the refusal itself must not reveal that (or what) it was.
   */
  readonly access: ObjectAccess;
  /**
   * An item deleted while its multipart upload was open: the upload still has to be aborted in the
   * object store, and an `UploadAborted` records that it was.
   */
  readonly openUploadId?: string;
}

export type PortalObjectState = AbsentPortalObject | LivePortalObject | DeletedPortalObject;

export const initialState: PortalObjectState = { status: 'absent' };

/**
 * Applies one event. Events are facts, so evolve never throws: an event that cannot apply to the state
 * (an update on an absent object) leaves it unchanged. `decide` never emits one, and appends are guarded
 * by the expected revision, so only a corrupted stream could hold one.
 */
export function evolve(state: PortalObjectState, event: PortalObjectEvent): PortalObjectState {
  switch (event.type) {
    case 'CatalogCreated': {
      if (state.status !== 'absent') return state;
      const { id, title, description, parentId, links } = event.data;
      return {
        status: 'live',
        kind: 'catalog',
        id,
        title,
        description,
        parentId,
        links,
        access: accessOfCreated(event.data),
      };
    }
    case 'CollectionCreated': {
      if (state.status !== 'absent') return state;
      const { id, title, description, parentId, links, license, keywords, extent, stacId } = event.data;
      return {
        status: 'live',
        kind: 'collection',
        id,
        title,
        description,
        parentId,
        links,
        license,
        keywords,
        extent,
        stacId: stacId ?? null,
        access: accessOfCreated(event.data),
      };
    }
    case 'PortalObjectUpdated':
      return state.status === 'live' ? applyChanges(state, event.data.changes) : state;
    case 'PortalObjectMoved':
      return state.status === 'live' ? { ...state, parentId: event.data.toParentId } : state;
    case 'PortalObjectDeleted':
      return state.status === 'live' ? tombstoneOf(state) : state;
    case 'VisibilityChanged':
    case 'ObjectShared':
    case 'ObjectUnshared':
      return state.status === 'live' ? { ...state, access: evolveAccess(state.access, event) } : state;
    case 'ItemUploadStarted':
    case 'ItemRegistered':
    case 'UploadCompletionRequested':
    case 'AssetAttached':
    case 'UploadCompleted':
    case 'UploadFailed':
    case 'UploadAborted':
    case 'UploadExpired':
      return evolveItem(state, event);
    default:
      return unreachable(event);
  }
}

/** The state after every event of a stream, oldest first: what a command handler decides on. */
export function foldState(events: Iterable<PortalObjectEvent>): PortalObjectState {
  let state = initialState;
  for (const event of events) state = evolve(state, event);
  return state;
}

/**
 * A live object becomes a tombstone keeping its place and its access as they were; an item keeps the id
 * of an upload left open.
 */
export function tombstoneOf(state: LivePortalObject): DeletedPortalObject {
  const { id, kind, parentId, access } = state;
  const tombstone = { status: 'deleted', id, kind, parentId, access } as const;
  const open =
    state.kind === 'item' && state.upload !== null && openUploadStatuses.includes(state.uploadStatus);
  return open ? { ...tombstone, openUploadId: state.upload.uploadId } : tombstone;
}

function applyChanges(state: LivePortalObject, changes: PortalObjectChanges): LivePortalObject {
  const common = {
    title: changes.title ?? state.title,
    links: changes.links ?? state.links,
  };
  switch (state.kind) {
    case 'catalog':
      return { ...state, ...common, description: changes.description ?? state.description };
    case 'item':
      return {
        ...state,
        ...common,
        description: changes.description === undefined ? state.description : changes.description,
        hrefAssets: changes.assets ?? state.hrefAssets,
        metadata: changes.metadata ?? state.metadata,
      };
    case 'collection':
      return {
        ...state,
        ...common,
        description: changes.description ?? state.description,
        license: changes.license ?? state.license,
        keywords: changes.keywords ?? state.keywords,
        // `null` is a real value here (back to the computed extent), so only a missing field keeps the old one.
        extent: changes.extent === undefined ? state.extent : changes.extent,
      };
    default:
      return unreachable(state);
  }
}

/**
 * Whether the object is a live collection holding the STAC name `stacId` (docs/stac.md, "Collection
 * ids"): what refuses a second collection of that name anywhere in the portal.
 */
export function holdsCollectionName(state: PortalObjectState, stacId: string): state is LiveCollection {
  return state.status === 'live' && state.kind === 'collection' && state.stacId === stacId;
}
