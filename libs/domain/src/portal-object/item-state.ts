import type {
  ItemAsset,
  ItemEvent,
  ItemMetadata,
  UploadedPart,
  UploadPlan,
  UploadStatus,
} from './item-events.js';
import { accessOfCreated } from './access-state.js';
import type { LiveFields, PortalObjectState } from './state.js';
import { unreachable } from './unreachable.js';

export interface LiveItem extends LiveFields {
  readonly kind: 'item';
  readonly metadata: ItemMetadata;
  readonly upload: UploadPlan;
  readonly uploadStatus: UploadStatus;
  /** Why the last completion failed; `null` otherwise. */
  readonly statusMessage: string | null;
  /** The parts named by the last completion request (`null`: every part the object store holds). */
  readonly requestedParts: readonly UploadedPart[] | null;
  readonly assets: readonly ItemAsset[];
}

/** The item events' half of `evolve`; like it, never throws and ignores what cannot apply. */
export function evolveItem(state: PortalObjectState, event: ItemEvent): PortalObjectState {
  if (event.type === 'ItemUploadStarted') {
    if (state.status !== 'absent') return state;
    const { id, title, description, parentId, links, metadata, upload } = event.data;
    return {
      status: 'live',
      kind: 'item',
      id,
      title,
      description,
      parentId,
      links,
      metadata,
      upload,
      uploadStatus: 'uploading',
      statusMessage: null,
      requestedParts: null,
      assets: [],
      access: accessOfCreated(event.data),
    };
  }
  if (state.status === 'deleted') {
    // The one fact that still matters after a delete: the upload left open was aborted.
    if (event.type !== 'UploadAborted' || state.openUploadId !== event.data.uploadId) return state;
    const { openUploadId: _aborted, ...tombstone } = state;
    return tombstone;
  }
  if (state.status !== 'live' || state.kind !== 'item') return state;
  if ('uploadId' in event.data && event.data.uploadId !== state.upload.uploadId) return state;
  return evolveLiveItem(state, event);
}

function evolveLiveItem(item: LiveItem, event: Exclude<ItemEvent, { type: 'ItemUploadStarted' }>): LiveItem {
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
