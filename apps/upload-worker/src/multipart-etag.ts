import { createHash } from 'node:crypto';
import { unquoteEtag } from './check-parts.js';

const MD5_HEX = /^[0-9a-f]{32}$/;

/**
 * The ETag S3 gives an object assembled from parts: the MD5 of the parts' binary MD5s, then `-<count>`.
 * AWS and Ceph both compute it this way; `null` when a part's ETag is not a plain MD5 (encrypted
 * objects), so there is nothing to compare against.
 */
export function expectedMultipartEtag(partEtags: readonly string[]): string | null {
  const digests: Buffer[] = [];
  for (const etag of partEtags) {
    const hex = unquoteEtag(etag);
    if (!MD5_HEX.test(hex)) return null;
    digests.push(Buffer.from(hex, 'hex'));
  }
  if (digests.length === 0) return null;
  return `${createHash('md5').update(Buffer.concat(digests)).digest('hex')}-${digests.length}`;
}
