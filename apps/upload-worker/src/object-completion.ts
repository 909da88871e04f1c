import type { ItemAsset, LiveUploadItem as LiveItem } from '@portal/domain';
import {
  ObjectStoreRejectedError,
  ObjectStoreUnavailableError,
  type ObjectStore,
  type StoredObject,
} from '@portal/uploads';
import { assetIdOf } from './asset-id.js';
import { formatBytes } from './byte-size.js';
import { checkParts, type CompletionPart, unquoteEtag } from './check-parts.js';
import { expectedMultipartEtag } from './multipart-etag.js';

/** The points a completion passes; tests stop it at each one to play a worker dying there. */
export type CompletionStep = 'parts-checked' | 'object-completed' | 'object-verified' | 'events-appended';

export type StepHook = (step: CompletionStep) => Promise<void> | void;

/** The object is complete and checked, or the client has something to fix (`statusMessage` says what). */
export type ObjectVerdict =
  { readonly ok: true; readonly asset: ItemAsset } | { readonly ok: false; readonly statusMessage: string };

/**
 * Assembles the item's parts into one object and checks it. Every step is safe to repeat: an attempt
 * that died after S3 assembled the object finds the upload gone and the object in place, and goes on
 * from there. Throws `ObjectStoreUnavailableError` when the object store does not answer (retry later).
 */
export async function completeInObjectStore(
  objectStore: ObjectStore,
  item: LiveItem,
  afterStep: StepHook,
): Promise<ObjectVerdict> {
  const { key, uploadId, bucket } = item.upload;
  if (bucket !== objectStore.bucket) {
    // Configuration, not the client: retried, then reported like an outage.
    throw new Error(`the upload is in bucket ${bucket}, but this worker serves bucket ${objectStore.bucket}`);
  }
  const stored = await objectStore.listParts(key, uploadId);
  if (stored === null) return adoptCompletedObject(objectStore, item);

  const check = checkParts({ itemId: item.id, plan: item.upload, requested: item.requestedParts, stored });
  if (!check.ok) return check;
  await afterStep('parts-checked');

  let assembled: boolean;
  try {
    assembled = await objectStore.completeMultipartUpload(key, uploadId, check.parts);
  } catch (error) {
    if (error instanceof ObjectStoreRejectedError) return refused(item.id, error);
    throw error;
  }
  await afterStep('object-completed');
  // A concurrent attempt may have assembled it first; then this one checks what that one made.
  if (!assembled) return adoptCompletedObject(objectStore, item);

  // Ceph 16.2 answers the completion with an empty ETag: HeadObject tells the truth.
  const object = await objectStore.headObject(key);
  if (object === null)
    throw new ObjectStoreUnavailableError('object storage does not show the assembled object yet');
  const problem = verifyAssembled(object, check.parts, check.totalSize);
  if (problem !== null) return { ok: false, statusMessage: problem };
  await afterStep('object-verified');
  return { ok: true, asset: assetOf(item, object) };
}

/** The upload is gone: an earlier attempt assembled the object (and died before recording it), or it was aborted. */
async function adoptCompletedObject(objectStore: ObjectStore, item: LiveItem): Promise<ObjectVerdict> {
  const object = await objectStore.headObject(item.upload.key);
  if (object === null) {
    return {
      ok: false,
      statusMessage:
        'the multipart upload is no longer open in object storage and no assembled file was found ' +
        '(it was aborted there); create the item again',
    };
  }
  const declared = item.upload.size;
  if (declared !== null && object.size !== declared) {
    return {
      ok: false,
      statusMessage:
        `object storage holds a file of ${formatBytes(object.size)} (${object.size} bytes), not the declared ` +
        `${formatBytes(declared)} (${declared} bytes), and its upload is closed; create the item again`,
    };
  }
  return { ok: true, asset: assetOf(item, object) };
}

function verifyAssembled(
  object: StoredObject,
  parts: readonly CompletionPart[],
  totalSize: number,
): string | null {
  if (object.size !== totalSize) {
    return (
      `object storage assembled ${object.size} bytes, but the parts add up to ${totalSize} bytes; ` +
      'create the item again'
    );
  }
  const expected = expectedMultipartEtag(parts.map((part) => part.etag));
  if (expected !== null && unquoteEtag(object.etag) !== expected) {
    return (
      `object storage assembled a file whose ETag ${object.etag} does not match its parts ("${expected}" ` +
      'expected); create the item again'
    );
  }
  return null;
}

function refused(itemId: string, error: ObjectStoreRejectedError): ObjectVerdict {
  const again = `POST /api/v1/portal/items/${itemId}/upload/urls gives fresh URLs`;
  switch (error.code) {
    case 'EntityTooSmall':
      return {
        ok: false,
        statusMessage:
          'object storage refused to assemble the parts (EntityTooSmall): every part except the last must be ' +
          `at least 5 MiB; upload the parts again in larger pieces (${again}) and complete again`,
      };
    case 'InvalidPart':
      return {
        ok: false,
        statusMessage:
          'object storage refused a part (InvalidPart): a part is missing or its ETag does not match what was ' +
          `uploaded; upload the parts again (${again}) and complete again`,
      };
    default:
      return {
        ok: false,
        statusMessage: `object storage refused to assemble the file (${error.code}); upload the parts again (${again}) and complete again`,
      };
  }
}

function assetOf(item: LiveItem, object: StoredObject): ItemAsset {
  return {
    id: assetIdOf(item.upload.uploadId),
    bucket: item.upload.bucket,
    key: item.upload.key,
    size: object.size,
    etag: object.etag,
    contentType: item.upload.contentType ?? object.contentType,
    fileName: item.upload.fileName,
  };
}
