import { describe, expect, it } from 'vitest';
import type { StoredPart } from '@portal/uploads';
import { checkParts, sameEtag, type PartCheck, type PartCheckInput } from './check-parts.js';

const MIB = 1024 ** 2;
const itemId = '0b7f3a52-8a4e-4f0e-9f55-2d1c6f0b9e11';
const urls = `POST /api/v1/portal/items/${itemId}/upload/urls gives fresh URLs`;

function part(partNumber: number, size: number, etag = `"etag-${partNumber}"`): StoredPart {
  return { partNumber, size, etag, lastModified: null };
}

function check(input: Partial<PartCheckInput> & Pick<PartCheckInput, 'stored'>) {
  return checkParts({
    itemId,
    plan: { size: 10 * MIB + 5, partCount: 3, partSize: 5 * MIB },
    requested: null,
    ...input,
  });
}

function messageOf(result: PartCheck): string {
  if (result.ok) throw new Error('the check passed');
  return result.statusMessage;
}

describe('checkParts', () => {
  it('takes every planned part when they are all there with the planned sizes', () => {
    const stored = [part(1, 5 * MIB), part(2, 5 * MIB), part(3, 5)];
    expect(check({ stored })).toEqual({
      ok: true,
      parts: stored.map(({ partNumber, etag, size }) => ({ partNumber, etag, size })),
      totalSize: 10 * MIB + 5,
    });
  });

  it('names a missing part with the planned count', () => {
    expect(check({ stored: [part(1, 5 * MIB), part(3, 5)] })).toEqual({
      ok: false,
      statusMessage: `part 2 of 3 is missing: upload it again (${urls}) and complete again`,
    });
  });

  it('names several missing parts, and abbreviates a long list', () => {
    expect(check({ stored: [part(3, 5)] })).toMatchObject({
      statusMessage: `parts 1 and 2 of 3 are missing: upload them again (${urls}) and complete again`,
    });
    const plan = { size: 40 * 5 * MIB, partCount: 40, partSize: 5 * MIB };
    expect(messageOf(check({ plan, stored: [part(40, 5 * MIB)] }))).toMatch(
      /^parts 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 29 more of 40 are missing/,
    );
  });

  it('says that nothing was uploaded yet', () => {
    expect(check({ stored: [] })).toMatchObject({
      statusMessage: `no part has been uploaded yet: upload the parts (${urls}) and complete again`,
    });
  });

  it('leaves out parts beyond the planned count', () => {
    const result = check({ stored: [part(1, 5 * MIB), part(2, 5 * MIB), part(3, 5), part(4, 9)] });
    expect(result).toMatchObject({ ok: true, totalSize: 10 * MIB + 5 });
  });

  it('names the first part whose size is not the planned one', () => {
    expect(check({ stored: [part(1, 5 * MIB), part(2, 4 * MIB), part(3, 5)] })).toEqual({
      ok: false,
      statusMessage:
        `received 9 MiB of 10 MiB (${9 * MIB + 5} of ${10 * MIB + 5} bytes): part 2 holds ${4 * MIB} bytes, ` +
        `${5 * MIB} expected; upload the parts again with the planned sizes (${urls}) and complete again`,
    });
  });

  it('uses every stored part when the size is unknown', () => {
    const stored = [part(1, 5 * MIB), part(7, 3)];
    expect(check({ plan: { size: null, partCount: null, partSize: 5 * MIB }, stored })).toMatchObject({
      ok: true,
      totalSize: 5 * MIB + 3,
    });
  });

  describe('with parts named by the client', () => {
    const stored = [part(1, 5 * MIB, '"aa"'), part(2, 5 * MIB, '"bb"'), part(3, 5, '"cc"')];

    it('takes the named parts in order, whatever order they were named in, quoted or not', () => {
      const result = check({
        stored,
        requested: [
          { partNumber: 3, etag: 'cc' },
          { partNumber: 1, etag: '"aa"' },
          { partNumber: 2, etag: 'BB' },
        ],
      });
      expect(result).toMatchObject({
        ok: true,
        parts: [{ partNumber: 1 }, { partNumber: 2 }, { partNumber: 3 }],
      });
    });

    it('names a named part the object store does not hold', () => {
      expect(
        check({
          stored: [part(1, 5 * MIB, '"aa"')],
          requested: [
            { partNumber: 1, etag: 'aa' },
            { partNumber: 3, etag: 'cc' },
          ],
        }),
      ).toEqual({
        ok: false,
        statusMessage: `part 3 is missing: upload it again (${urls}) and complete again`,
      });
    });

    it('names a part whose ETag differs', () => {
      const result = check({
        stored,
        requested: [
          { partNumber: 1, etag: '"aa"' },
          { partNumber: 2, etag: '"xx"' },
          { partNumber: 3, etag: '"yy"' },
        ],
      });
      expect(result).toEqual({
        ok: false,
        statusMessage:
          'part 2 was named with ETag "xx", but object storage holds ETag "bb" (and 1 more parts differ): complete ' +
          `with the ETags the part uploads answered, or upload the parts again (${urls})`,
      });
    });

    it('checks the named parts against the declared size', () => {
      expect(messageOf(check({ stored, requested: [{ partNumber: 1, etag: 'aa' }] }))).toMatch(
        /^received 5 MiB of 10 MiB/,
      );
    });
  });
});

describe('sameEtag', () => {
  it('ignores quotes, a weak marker and case', () => {
    expect(sameEtag('"ABC-2"', 'abc-2')).toBe(true);
    expect(sameEtag('W/"abc"', 'abc')).toBe(true);
    expect(sameEtag('"abc"', '"abd"')).toBe(false);
  });
});
