import type {
  ItemAsset,
  ItemEvent,
  ItemRegistered,
  ItemUploadStarted,
  ItemMetadata,
  UploadedPart,
  UploadPlan,
  UploadStatus,
} from './item-events.js';
import { DomainError } from '../errors.js';
import { accessOfCreated } from './access-state.js';
import type { HrefAsset } from './href-assets.js';
import type { LiveFields, PortalObjectState } from './state.js';
import { unreachable } from './unreachable.js';

interface LiveItemFields extends LiveFields {
  readonly kind: 'item';
  readonly metadata: ItemMetadata;
  /** Why the last completion failed; `null` otherwise. */
  readonly statusMessage: string | null;
  /** The parts named by the last completion request (`null`: every part the object store holds). */
  readonly requestedParts: readonly UploadedPart[] | null;
  /** The uploaded file (at most one), attached by the upload worker. */
  readonly assets: readonly ItemAsset[];
  /** Assets registered by href, in the order they were added. */
  readonly hrefAssets: readonly HrefAsset[];
  /** The item's STAC id, when its client named it (docs/stac.md, "Item ids"); set once. */
  readonly stacId: string | null;
}

/** An item created with a multipart upload. */
export interface LiveUploadItem extends LiveItemFields {
  readonly upload: UploadPlan;
  readonly uploadStatus: UploadStatus;
}

/** An item registered with assets by href: no upload ever, `ready` from its creation. */
export interface LiveRegisteredItem extends LiveItemFields {
  readonly upload: null;
  readonly uploadStatus: 'ready';
}

/** Narrowing on `uploadStatus` to any status but `ready` gives an item with an upload. */
export type LiveItem = LiveUploadItem | LiveRegisteredItem;

/** The item's upload; an item registered by href has none, and no upload command applies to it. */
export function uploadOf(item: LiveItem): UploadPlan {
  if (item.upload === null) throw noUpload(item.id);
  return item.upload;
}

export function noUpload(id: string): DomainError {
  return new DomainError('INVALID_STATE', `item ${id} has no upload: its assets are registered by href`);
}

/** Whether the object is a live item whose parent is `parentId`. */
export function isLiveItemIn(state: PortalObjectState, parentId: string): state is LiveItem {
  return state.status === 'live' && state.kind === 'item' && state.parentId === parentId;
}

/**
 * Whether the object is a live item of `parentId` holding the STAC name `stacId` (docs/stac.md, "Item
 * ids"): what refuses a second item of that name there.
 */
export function holdsStacName(state: PortalObjectState, parentId: string, stacId: string): boolean {
  return isLiveItemIn(state, parentId) && state.stacId === stacId;
}

/** A new item's state from its create event: what an uploaded and a registered item have alike. */
function createdItem(event: ItemUploadStarted | ItemRegistered) {
  const { id, title, description, parentId, links, metadata, stacId } = event.data;
  return {
    status: 'live',
    kind: 'item',
    id,
    title,
    description,
    parentId,
    links,
    metadata,
    statusMessage: null,
    requestedParts: null,
    assets: [],
    stacId: stacId ?? null,
    access: accessOfCreated(event.data),
  } as const;
}

/** The item events' half of `evolve`; like it, never throws and ignores what cannot apply. */
export function evolveItem(state: PortalObjectState, event: ItemEvent): PortalObjectState {
  if (event.type === 'ItemUploadStarted') {
    if (state.status !== 'absent') return state;
    return { ...createdItem(event), upload: event.data.upload, uploadStatus: 'uploading', hrefAssets: [] };
  }
  if (event.type === 'ItemRegistered') {
    if (state.status !== 'absent') return state;
    return { ...createdItem(event), upload: null, uploadStatus: 'ready', hrefAssets: event.data.assets };
  }
  if (state.status === 'deleted') {
    // The one fact that still matters after a delete: the upload left open was aborted.
    if (event.type !== 'UploadAborted' || state.openUploadId !== event.data.uploadId) return state;
    const { openUploadId: _aborted, ...tombstone } = state;
    return tombstone;
  }
  // Every other item event is about an upload: an item registered by href has none to change.
  if (state.status !== 'live' || state.kind !== 'item' || state.upload === null) return state;
  if ('uploadId' in event.data && event.data.uploadId !== state.upload.uploadId) return state;
  return evolveUploadItem(state, event);
}

function evolveUploadItem(
  item: LiveUploadItem,
  event: Exclude<ItemEvent, { type: 'ItemUploadStarted' | 'ItemRegistered' }>,
): LiveUploadItem {
  switch (event.type) {
    case 'UploadCompletionRequested':
      return { ...item, uploadStatus: 'processing', statusMessage: null, requestedParts: event.data.parts };
    case 'AssetAttached':
      if (item.assets.some((asset) => asset.id === event.data.asset.id)) return item;
      return { ...item, assets: [...item.assets, event.data.asset] };
    case 'UploadCompleted':
      return { ...item, uploadStatus: 'ready', statusMessage: null };
    case 'UploadFailed':
      return { ...item, uploadStatus: 'failed', statusMessage: event.data.statusMessage };
    case 'UploadAborted':
      return { ...item, uploadStatus: 'aborted' };
    case 'UploadExpired':
      return { ...item, uploadStatus: 'expired' };
    default:
      return unreachable(event);
  }
}
