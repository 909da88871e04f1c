import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assetIdOf } from './asset-id.js';
import { formatBytes } from './byte-size.js';
import { expectedMultipartEtag } from './multipart-etag.js';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('expectedMultipartEtag', () => {
  it('is the MD5 of the parts’ binary MD5s with the part count', () => {
    const parts = [md5('a'), md5('b')];
    const expected = createHash('md5')
      .update(Buffer.concat(parts.map((hex) => Buffer.from(hex, 'hex'))))
      .digest('hex');
    expect(expectedMultipartEtag(parts.map((hex) => `"${hex}"`))).toBe(`${expected}-2`);
  });

  it('has nothing to compare against when a part ETag is not a plain MD5', () => {
    expect(expectedMultipartEtag([`"${md5('a')}"`, '"not-an-md5"'])).toBeNull();
    expect(expectedMultipartEtag([])).toBeNull();
  });
});

describe('assetIdOf', () => {
  it('derives the same version-5 UUID from the same upload id, and another from another', () => {
    const id = assetIdOf('2~upload-a');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(assetIdOf('2~upload-a')).toBe(id);
    expect(assetIdOf('2~upload-b')).not.toBe(id);
  });
});

describe('formatBytes', () => {
  it('writes sizes the way a person reads them', () => {
    expect(formatBytes(800)).toBe('800 bytes');
    expect(formatBytes(12 * 1024 ** 2)).toBe('12 MiB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GiB');
    expect(formatBytes(10 * 1024 ** 2 + 5)).toBe('10 MiB');
  });
});
