import type { NewObjectAccess, ParentLookup } from './commands.js';
import type { ItemAsset, ItemMetadata, UploadedPart, UploadPlan } from './item-events.js';
import type { HrefAsset } from './href-assets.js';
import type { Link } from './types.js';

/** The API created the multipart upload in the object store; the item starts `uploading`. */
export interface CreateItem {
  readonly type: 'CreateItem';
  readonly data: {
    readonly id: string;
    readonly title: string;
    readonly description: string | null;
    readonly links: readonly Link[];
    readonly metadata: ItemMetadata;
    readonly upload: UploadPlan;
    /** The item's STAC id, when its client named it (`ItemRegistered.stacId`); else null. */
    readonly stacId: string | null;
    /** Items always have a parent; `null` is refused with a message naming the allowed kinds. */
    readonly parent: ParentLookup | null;
    readonly access: NewObjectAccess;
  };
}

/** An item whose assets are registered by href: no upload, `ready` at once. */
export interface RegisterItem {
  readonly type: 'RegisterItem';
  readonly data: {
    readonly id: string;
    readonly title: string;
    readonly description: string | null;
    readonly links: readonly Link[];
    readonly metadata: ItemMetadata;
    readonly assets: readonly HrefAsset[];
    /** The id a STAC client gave the item when it is not a UUID (`ItemRegistered.stacId`); else null. */
    readonly stacId: string | null;
    readonly parent: ParentLookup | null;
    readonly access: NewObjectAccess;
  };
}

export interface RequestUploadCompletion {
  readonly type: 'RequestUploadCompletion';
  readonly data: {
    readonly id: string;
    readonly parts: readonly UploadedPart[] | null;
    readonly ancestorDeleted: boolean;
    /** ISO 8601 UTC: an upload past its expiry cannot be completed any more. */
    readonly now: string;
  };
}

/** The upload worker completed the multipart upload and verified the object. */
export interface AttachUploadedAsset {
  readonly type: 'AttachUploadedAsset';
  readonly data: { readonly id: string; readonly uploadId: string; readonly asset: ItemAsset };
}

/** The upload worker gave up on a completion; the upload stays open so the client can fix it. */
export interface FailUpload {
  readonly type: 'FailUpload';
  readonly data: { readonly id: string; readonly uploadId: string; readonly statusMessage: string };
}

/** The client gives up, or a deleted item's open upload is cleaned up. */
export interface AbortUpload {
  readonly type: 'AbortUpload';
  readonly data: {
    readonly id: string;
    readonly ancestorDeleted: boolean;
    /**
     * The system ends an upload nobody can reach any more (an item buried by a recursive delete above):
     * allowed where a client's abort answers 404.
     */
    readonly cleanup?: boolean;
  };
}

/** The sweep found the upload open past its time to live. */
export interface ExpireUpload {
  readonly type: 'ExpireUpload';
  readonly data: { readonly id: string; readonly uploadId: string; readonly now: string };
}

export type ItemCommand =
  | CreateItem
  | RegisterItem
  | RequestUploadCompletion
  | AttachUploadedAsset
  | FailUpload
  | AbortUpload
  | ExpireUpload;
