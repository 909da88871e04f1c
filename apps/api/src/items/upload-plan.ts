import { MAX_URLS_PER_REQUEST, type CreateItemBody } from '@portal/contracts';
import { planParts, type UploadPlan } from '@portal/domain';
import type { Config } from '@portal/platform';
import { objectKeyOf } from '@portal/uploads';

/** Everything of an upload plan but the upload id, which only the object store can give. */
export type PendingUploadPlan = Omit<UploadPlan, 'uploadId'>;

/** Part size and count (docs/decisions.md, Uploads), key and expiry of a new item's upload. */
export function pendingUploadPlan(
  config: Pick<Config, 'S3_BUCKET' | 'UPLOAD_TTL_SECONDS'>,
  itemId: string,
  body: CreateItemBody,
  now: Date,
): PendingUploadPlan {
  const { partSize, partCount } = planParts({
    ...(body.size === undefined ? {} : { size: body.size }),
    ...(body.partSize === undefined ? {} : { partSize: body.partSize }),
  });
  const fileName = body.fileName ?? null;
  return {
    bucket: config.S3_BUCKET,
    key: objectKeyOf(itemId, fileName),
    partSize,
    partCount,
    size: body.size ?? null,
    fileName,
    contentType: body.contentType ?? null,
    expiresAt: new Date(now.getTime() + config.UPLOAD_TTL_SECONDS * 1000).toISOString(),
  };
}

/**
 * The parts a descriptor offers URLs for: all of them when the size is known, up to 1,000 (62.5 GiB in
 * default parts); otherwise the first. `POST .../upload/urls` gives the rest as the client needs them.
 * Bounded because signing is CPU work on the API's one thread (~0.4 ms a URL): 10,000 URLs would stall
 * every other request for seconds and make a 5 MB answer.
 */
export function partNumbersToOffer(plan: Pick<UploadPlan, 'partCount'>): number[] {
  const count = Math.min(plan.partCount ?? 1, MAX_URLS_PER_REQUEST);
  return Array.from({ length: count }, (_, index) => index + 1);
}

/** Presigned URLs live for the configured time, but never past the upload's own expiry. */
export function urlLifetimeSeconds(
  config: Pick<Config, 'UPLOAD_URL_TTL_SECONDS'>,
  plan: Pick<UploadPlan, 'expiresAt'>,
  now: Date,
): number {
  const untilExpiry = Math.floor((Date.parse(plan.expiresAt) - now.getTime()) / 1000);
  return Math.max(1, Math.min(config.UPLOAD_URL_TTL_SECONDS, untilExpiry));
}
