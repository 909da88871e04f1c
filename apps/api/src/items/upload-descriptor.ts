import type { UploadDescriptor } from '@portal/contracts';
import type { UploadPlan } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { partNumbersToOffer, urlLifetimeSeconds } from './upload-plan.js';

/** The answer to an item create, alone or in a `POST /` batch: where and how to upload its file. */
export async function uploadDescriptorOf(
  deps: ApiDependencies,
  id: string,
  upload: UploadPlan,
  now: Date,
): Promise<UploadDescriptor> {
  const partUrls = await deps.objectStore.presignUploadParts(
    upload.key,
    upload.uploadId,
    partNumbersToOffer(upload),
    urlLifetimeSeconds(deps.config, upload, now),
  );
  return {
    portalItemId: id,
    key: upload.key,
    bucket: upload.bucket,
    uploadId: upload.uploadId,
    partSize: upload.partSize,
    partUrls,
  };
}
