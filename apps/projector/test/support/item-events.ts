import { randomUUID } from 'node:crypto';
import {
  noItemMetadata,
  type AssetAttached,
  type ItemAsset,
  type HrefAsset,
  type ItemMetadata,
  type ItemRegistered,
  type ItemUploadStarted,
  type UploadAborted,
  type UploadCompleted,
  type UploadCompletionRequested,
  type UploadExpired,
  type UploadFailed,
  type UploadPlan,
} from '@portal/domain';
import { noAccess } from './portal-events.js';

/** An item's create with no metadata and a 3-part upload unless given. */
export function itemUploadStarted(
  data: Partial<Omit<ItemUploadStarted['data'], 'metadata' | 'upload'>> & {
    title: string;
    parentId: string;
    metadata?: Partial<ItemMetadata>;
    upload?: Partial<UploadPlan>;
  },
): ItemUploadStarted {
  const id = data.id ?? randomUUID();
  return {
    type: 'ItemUploadStarted',
    data: {
      description: null,
      links: [],
      ...noAccess,
      ...data,
      id,
      metadata: { ...noItemMetadata, ...data.metadata },
      upload: {
        uploadId: `upload-${id}`,
        bucket: 'portal-test',
        key: `items/${id}/file.tif`,
        partSize: 8 * 1024 * 1024,
        partCount: 3,
        size: 20 * 1024 * 1024,
        fileName: 'file.tif',
        contentType: 'image/tiff',
        expiresAt: '2025-01-08T00:00:00.000Z',
        ...data.upload,
      },
    },
  };
}

/** An item registered with assets by href (none unless given) and no metadata unless given. */
export function itemRegistered(
  data: Partial<Omit<ItemRegistered['data'], 'metadata'>> & {
    title: string;
    parentId: string;
    metadata?: Partial<ItemMetadata>;
    assets?: readonly HrefAsset[];
  },
): ItemRegistered {
  return {
    type: 'ItemRegistered',
    data: {
      description: null,
      links: [],
      assets: [],
      ...noAccess,
      ...data,
      id: data.id ?? randomUUID(),
      metadata: { ...noItemMetadata, ...data.metadata },
    },
  };
}

/** The upload id an item's events carry. */
export function uploadIdOf(item: ItemUploadStarted): string {
  return item.data.upload.uploadId;
}

export function completionRequested(item: ItemUploadStarted): UploadCompletionRequested {
  return {
    type: 'UploadCompletionRequested',
    data: { id: item.data.id, uploadId: uploadIdOf(item), parts: null },
  };
}

export function assetOf(item: ItemUploadStarted): ItemAsset {
  const { upload } = item.data;
  return {
    id: randomUUID(),
    bucket: upload.bucket,
    key: upload.key,
    size: upload.size ?? 1,
    etag: '"0123456789abcdef0123456789abcdef-3"',
    contentType: upload.contentType,
    fileName: upload.fileName,
  };
}

export function assetAttached(item: ItemUploadStarted, asset: ItemAsset = assetOf(item)): AssetAttached {
  return { type: 'AssetAttached', data: { id: item.data.id, asset } };
}

export function uploadCompleted(item: ItemUploadStarted, asset: ItemAsset): UploadCompleted {
  return {
    type: 'UploadCompleted',
    data: { id: item.data.id, uploadId: uploadIdOf(item), assetId: asset.id },
  };
}

/** The worker's two events of a completion that succeeded. */
export function completed(item: ItemUploadStarted): [AssetAttached, UploadCompleted] {
  const asset = assetOf(item);
  return [assetAttached(item, asset), uploadCompleted(item, asset)];
}

export function uploadFailed(item: ItemUploadStarted, statusMessage: string): UploadFailed {
  return { type: 'UploadFailed', data: { id: item.data.id, uploadId: uploadIdOf(item), statusMessage } };
}

export function uploadAborted(item: ItemUploadStarted): UploadAborted {
  return { type: 'UploadAborted', data: { id: item.data.id, uploadId: uploadIdOf(item) } };
}

export function uploadExpired(item: ItemUploadStarted): UploadExpired {
  return { type: 'UploadExpired', data: { id: item.data.id, uploadId: uploadIdOf(item) } };
}
