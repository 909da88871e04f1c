import { createHash } from 'node:crypto';

/** A fixed namespace for asset ids (RFC 9562 name-based UUIDs hash a namespace with the name). */
const ASSET_NAMESPACE = Buffer.from('7b0c3f4e9d2a4c1b8e5f60a1b2c3d4e5', 'hex');

/**
 * The asset id of an upload, derived from its upload id (a version-5 UUID): every attempt of a retried
 * or duplicated completion attaches the same id, so a replayed attempt can never add a second asset.
 */
export function assetIdOf(uploadId: string): string {
  const hash = createHash('sha1').update(ASSET_NAMESPACE).update(uploadId, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
