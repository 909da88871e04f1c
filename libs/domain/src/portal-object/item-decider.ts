import { DomainError } from '../errors.js';
import { createdAccess } from './access-decider.js';
import type {
  AbortUpload,
  AttachUploadedAsset,
  CreateItem,
  ExpireUpload,
  FailUpload,
  ItemCommand,
  RegisterItem,
  RequestUploadCompletion,
} from './item-commands.js';
import type { ItemEvent } from './item-events.js';
import { noUpload, type LiveUploadItem } from './item-state.js';
import { checkPlacement } from './hierarchy.js';
import { checkHrefAssets } from './href-assets.js';
import { jsonEqual } from './json-equal.js';
import type { PortalObjectState } from './state.js';
import { unreachable } from './unreachable.js';

/** The item commands' half of `decide`: the upload lifecycle (docs/decisions.md, Uploads). */
export function decideItem(command: ItemCommand, state: PortalObjectState): ItemEvent[] {
  switch (command.type) {
    case 'CreateItem':
      return createItem(command, state);
    case 'RegisterItem':
      return registerItem(command, state);
    case 'RequestUploadCompletion':
      return requestCompletion(command, state);
    case 'AttachUploadedAsset':
      return attachAsset(command, state);
    case 'FailUpload':
      return failUpload(command, state);
    case 'AbortUpload':
      return abortUpload(command, state);
    case 'ExpireUpload':
      return expireUpload(command, state);
    default:
      return unreachable(command);
  }
}

/**
 * What both item creates record, once the item may be created there: absent until now, placed under a
 * collection or catalog; its name (when its STAC client gave one) and the access it starts with.
 */
function createdItemFields(data: CreateItem['data'] | RegisterItem['data'], state: PortalObjectState) {
  if (state.status !== 'absent') {
    throw new DomainError('ALREADY_EXISTS', `${state.kind} ${data.id} already exists`);
  }
  checkPlacement({ id: data.id, kind: 'item', parent: data.parent, subtreeHeight: 0 });
  // checkPlacement refused the root level: an item always has a parent.
  if (data.parent === null) throw new Error('checkPlacement accepted an item at root level');
  const { id, title, description, links, metadata, stacId } = data;
  return {
    id,
    title,
    description,
    parentId: data.parent.id,
    links,
    metadata,
    ...(stacId !== null && { stacId }),
    ...createdAccess(data.access, data.parent),
  };
}

function createItem({ data }: CreateItem, state: PortalObjectState): ItemEvent[] {
  return [{ type: 'ItemUploadStarted', data: { ...createdItemFields(data, state), upload: data.upload } }];
}

function registerItem({ data }: RegisterItem, state: PortalObjectState): ItemEvent[] {
  const fields = createdItemFields(data, state);
  checkHrefAssets(data.id, data.assets);
  return [{ type: 'ItemRegistered', data: { ...fields, assets: data.assets } }];
}

function requestCompletion({ data }: RequestUploadCompletion, state: PortalObjectState): ItemEvent[] {
  const item = requireLiveItem(data.id, state, data.ancestorDeleted);
  switch (item.uploadStatus) {
    case 'processing':
      // A retried request: the job is enqueued again under the same id, and nothing new is recorded. One
      // naming other parts would be silently ignored by the running job, so it is refused instead.
      if (data.parts !== null && !jsonEqual(data.parts, item.requestedParts)) {
        throw new DomainError(
          'INVALID_STATE',
          `item ${item.id} is processing a completion with other parts; if it fails, complete again`,
        );
      }
      return [];
    case 'uploading':
    case 'failed':
      if (data.now >= item.upload.expiresAt) {
        throw new DomainError(
          'INVALID_STATE',
          `the upload of item ${item.id} expired at ${item.upload.expiresAt}; create the item again`,
        );
      }
      return [
        {
          type: 'UploadCompletionRequested',
          data: { id: item.id, uploadId: item.upload.uploadId, parts: data.parts },
        },
      ];
    case 'ready':
    case 'aborted':
    case 'expired':
      throw ended(item.id, item.uploadStatus);
    default:
      return unreachable(item.uploadStatus);
  }
}

function attachAsset({ data }: AttachUploadedAsset, state: PortalObjectState): ItemEvent[] {
  const item = currentUpload(state, data.uploadId);
  // Already attached by an earlier attempt of the same job (or the item moved on): nothing to add.
  if (item?.uploadStatus !== 'processing') return [];
  return [
    { type: 'AssetAttached', data: { id: item.id, asset: data.asset } },
    { type: 'UploadCompleted', data: { id: item.id, uploadId: data.uploadId, assetId: data.asset.id } },
  ];
}

function failUpload({ data }: FailUpload, state: PortalObjectState): ItemEvent[] {
  const item = currentUpload(state, data.uploadId);
  if (item?.uploadStatus !== 'processing') return [];
  return [
    {
      type: 'UploadFailed',
      data: { id: item.id, uploadId: data.uploadId, statusMessage: data.statusMessage },
    },
  ];
}

function abortUpload({ data }: AbortUpload, state: PortalObjectState): ItemEvent[] {
  if (state.status === 'deleted') {
    if (state.openUploadId === undefined)
      throw new DomainError('NOT_FOUND', `${state.kind} ${data.id} was deleted`);
    return [{ type: 'UploadAborted', data: { id: data.id, uploadId: state.openUploadId } }];
  }
  const item = requireLiveItem(data.id, state, data.ancestorDeleted && data.cleanup !== true);
  switch (item.uploadStatus) {
    case 'uploading':
    case 'failed':
      return [{ type: 'UploadAborted', data: { id: item.id, uploadId: item.upload.uploadId } }];
    case 'aborted':
      return [];
    case 'processing':
      throw new DomainError(
        'INVALID_STATE',
        `item ${item.id} is processing: its completion is under way and cannot be aborted`,
      );
    case 'ready':
    case 'expired':
      throw ended(item.id, item.uploadStatus);
    default:
      return unreachable(item.uploadStatus);
  }
}

function expireUpload({ data }: ExpireUpload, state: PortalObjectState): ItemEvent[] {
  const item = currentUpload(state, data.uploadId);
  if (!item || (item.uploadStatus !== 'uploading' && item.uploadStatus !== 'failed')) return [];
  if (data.now < item.upload.expiresAt) return [];
  return [{ type: 'UploadExpired', data: { id: item.id, uploadId: data.uploadId } }];
}

const endings: Readonly<Record<'ready' | 'aborted' | 'expired', string>> = {
  ready: 'its upload is complete',
  aborted: 'its upload was aborted; create the item again',
  expired: 'its upload expired; create the item again',
};

function ended(id: string, status: keyof typeof endings): DomainError {
  return new DomainError('INVALID_STATE', `item ${id} is ${status}: ${endings[status]}`);
}

/** The live item whose open upload is `uploadId`, or `null` when the worker's job is stale. */
function currentUpload(state: PortalObjectState, uploadId: string): LiveUploadItem | null {
  if (state.status !== 'live' || state.kind !== 'item' || state.upload === null) return null;
  return state.upload.uploadId === uploadId ? state : null;
}

function requireLiveItem(id: string, state: PortalObjectState, ancestorDeleted: boolean): LiveUploadItem {
  if (state.status === 'absent') throw new DomainError('NOT_FOUND', `item ${id} does not exist`);
  if (state.status === 'deleted') throw new DomainError('NOT_FOUND', `${state.kind} ${id} was deleted`);
  if (ancestorDeleted) throw new DomainError('NOT_FOUND', `${state.kind} ${id} was deleted with an ancestor`);
  if (state.kind !== 'item') {
    throw new DomainError('INVALID_COMMAND', `${state.kind} ${id} is not an item and has no upload`);
  }
  if (state.upload === null) throw noUpload(id);
  return state;
}
