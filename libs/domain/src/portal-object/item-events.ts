import type { CreatedAccess } from './events.js';
import type { GeoJsonGeometry } from './geometry.js';
import type { HrefAsset } from './href-assets.js';
import type { BBox, Link } from './types.js';

/** Where an item's file goes and how it is cut into parts. */
export interface UploadPlan {
  /** The S3 multipart upload id. */
  readonly uploadId: string;
  readonly bucket: string;
  readonly key: string;
  readonly partSize: number;
  /** `null` when the client gave no size: any number of parts up to 10,000. */
  readonly partCount: number | null;
  readonly size: number | null;
  readonly fileName: string | null;
  readonly contentType: string | null;
  /** ISO 8601 UTC; an upload still open then is aborted and the item expires. */
  readonly expiresAt: string;
}

/** Descriptive metadata of an item; every field is optional on create. */
export interface ItemMetadata {
  readonly geometry: GeoJsonGeometry | null;
  readonly bbox: BBox | null;
  /** ISO 8601 UTC; either `datetime`, or both of `startDatetime` and `endDatetime`, or none. */
  readonly datetime: string | null;
  readonly startDatetime: string | null;
  readonly endDatetime: string | null;
  readonly tags: readonly string[];
  readonly properties: Readonly<Record<string, unknown>> | null;
}

/** An item created with none of the optional metadata. */
export const noItemMetadata: ItemMetadata = {
  geometry: null,
  bbox: null,
  datetime: null,
  startDatetime: null,
  endDatetime: null,
  tags: [],
  properties: null,
};

export interface ItemUploadStarted {
  readonly type: 'ItemUploadStarted';
  readonly data: {
    readonly id: string;
    readonly title: string;
    readonly description: string | null;
    readonly parentId: string;
    readonly links: readonly Link[];
    readonly metadata: ItemMetadata;
    readonly upload: UploadPlan;
    /** The item's STAC id, when its client named it (as `ItemRegistered.stacId`). */
    readonly stacId?: string;
  } & CreatedAccess;
}

/**
 * An item created with its assets registered by href and no upload: it is `ready` at once (nothing
 * is on its way), and never has an upload (docs/decisions.md, Assets by href).
 */
export interface ItemRegistered {
  readonly type: 'ItemRegistered';
  readonly data: {
    readonly id: string;
    readonly title: string;
    readonly description: string | null;
    readonly parentId: string;
    readonly links: readonly Link[];
    readonly metadata: ItemMetadata;
    readonly assets: readonly HrefAsset[];
    /**
     * The item's STAC name, when its client gave one (a STAC transaction's `id` that is not a UUID, or
     * the portal API's `stacId`: docs/stac.md, "Item ids"): the item's STAC `id` and the last segment of
     * its STAC path. Set once; absent on items named by their UUID.
     */
    readonly stacId?: string;
  } & CreatedAccess;
}

export interface UploadedPart {
  readonly partNumber: number;
  readonly etag: string;
}

/** The client says every part is uploaded; the upload worker takes it from here. */
export interface UploadCompletionRequested {
  readonly type: 'UploadCompletionRequested';
  readonly data: {
    readonly id: string;
    readonly uploadId: string;
    /** The parts the client names, or `null` to use every part the object store holds. */
    readonly parts: readonly UploadedPart[] | null;
  };
}

export interface ItemAsset {
  readonly id: string;
  readonly bucket: string;
  readonly key: string;
  readonly size: number;
  /** The object's ETag as the object store reports it (quoted, `-<parts>` suffix for multipart). */
  readonly etag: string;
  readonly contentType: string | null;
  readonly fileName: string | null;
}

export interface AssetAttached {
  readonly type: 'AssetAttached';
  readonly data: { readonly id: string; readonly asset: ItemAsset };
}

export interface UploadCompleted {
  readonly type: 'UploadCompleted';
  readonly data: { readonly id: string; readonly uploadId: string; readonly assetId: string };
}

export interface UploadFailed {
  readonly type: 'UploadFailed';
  readonly data: {
    readonly id: string;
    readonly uploadId: string;
    /** What went wrong and what the client can do about it, for a person to read. */
    readonly statusMessage: string;
  };
}

export interface UploadAborted {
  readonly type: 'UploadAborted';
  readonly data: { readonly id: string; readonly uploadId: string };
}

export interface UploadExpired {
  readonly type: 'UploadExpired';
  readonly data: { readonly id: string; readonly uploadId: string };
}

export type ItemEvent =
  | ItemUploadStarted
  | ItemRegistered
  | UploadCompletionRequested
  | AssetAttached
  | UploadCompleted
  | UploadFailed
  | UploadAborted
  | UploadExpired;

/** An item's status (uploading → processing → ready, or failed, aborted, expired); catalogs and collections are always `ready`. */
export const uploadStatuses = ['uploading', 'processing', 'ready', 'failed', 'aborted', 'expired'] as const;
export type UploadStatus = (typeof uploadStatuses)[number];

/** Statuses whose multipart upload is still open in the object store. */
export const openUploadStatuses: readonly UploadStatus[] = ['uploading', 'processing', 'failed'];
