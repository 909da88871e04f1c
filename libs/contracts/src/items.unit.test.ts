import { describe, expect, it } from 'vitest';
import { CONTENT_TYPE_MAX, createItemBodySchema, FILE_NAME_MAX, MAX_UPLOAD_BYTES } from './items.js';
import { DESCRIPTION_MAX, TITLE_MAX } from './portal-fields.js';
import { someId, validItemBody, validLink } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';
import { itEnforcesStringBounds } from './test-support/string-bounds.js';
import { itRefusesInvisibleTitles } from './test-support/visible-title.js';

describe('item create body', () => {
  itEnforcesStringBounds(createItemBodySchema, {
    path: 'title',
    max: TITLE_MAX,
    bodyWith: (title) => ({ ...validItemBody(), title }),
  });
  itRefusesInvisibleTitles(createItemBodySchema, (title) => ({ ...validItemBody(), title }));
  itEnforcesStringBounds(createItemBodySchema, {
    path: 'description',
    max: DESCRIPTION_MAX,
    bodyWith: (description) => ({ ...validItemBody(), description }),
  });
  itEnforcesStringBounds(createItemBodySchema, {
    path: 'fileName',
    max: FILE_NAME_MAX,
    bodyWith: (fileName) => ({ ...validItemBody(), fileName }),
  });
  itEnforcesStringBounds(createItemBodySchema, {
    path: 'links[0].title',
    max: 140,
    bodyWith: (title) => ({ ...validItemBody(), links: [{ ...validLink(), title }] }),
  });

  it('needs only title and links', () => {
    expect(acceptanceOf(createItemBodySchema, validItemBody())).toEqual(validItemBody());
    expect(rejectionOf(createItemBodySchema, { title: 'x' }).message).toBe('links: is required');
  });

  it('accepts every optional field', () => {
    const body = {
      ...validItemBody(),
      description: 'Daily means',
      parentId: someId,
      size: 1,
      fileName: 'temperature.tif',
      contentType: 'image/tiff; application=geotiff',
    };
    expect(acceptanceOf(createItemBodySchema, body)).toEqual(body);
  });

  it(`size: accepts 1 and ${MAX_UPLOAD_BYTES} bytes`, () => {
    acceptanceOf(createItemBodySchema, { ...validItemBody(), size: 1 });
    acceptanceOf(createItemBodySchema, { ...validItemBody(), size: MAX_UPLOAD_BYTES });
  });

  it.each([
    [0, 'size: must be a positive number of bytes'],
    [-5, 'size: must be a positive number of bytes'],
    [1.5, 'size: must be a whole number of bytes'],
    ['100', 'size: must be a whole number of bytes'],
    [MAX_UPLOAD_BYTES + 1, `size: must be at most ${MAX_UPLOAD_BYTES} bytes (5 TiB)`],
  ])('size: rejects %j', (size, message) => {
    expect(rejectionOf(createItemBodySchema, { ...validItemBody(), size }).message).toBe(message);
  });

  it('parentId must be a UUID', () => {
    expect(rejectionOf(createItemBodySchema, { ...validItemBody(), parentId: 'abc' }).message).toBe(
      'parentId: must be a UUID',
    );
  });

  it('rejects unknown top-level fields', () => {
    expect(rejectionOf(createItemBodySchema, { ...validItemBody(), filename: 'a.tif' }).message).toBe(
      'filename: is not an allowed field',
    );
  });
});

describe('item create body: contentType', () => {
  it(`accepts a media type of ${CONTENT_TYPE_MAX} characters and refuses a longer one`, () => {
    const of = (length: number) => `application/${'x'.repeat(length - 'application/'.length)}`;
    expect(
      acceptanceOf(createItemBodySchema, { ...validItemBody(), contentType: of(CONTENT_TYPE_MAX) }),
    ).toBeDefined();
    expect(
      rejectionOf(createItemBodySchema, { ...validItemBody(), contentType: of(CONTENT_TYPE_MAX + 1) })
        .message,
    ).toBe(`contentType: must be at most ${CONTENT_TYPE_MAX} characters`);
  });

  it.each([
    'image/tiff',
    'text/csv; charset=utf-8',
    'application/vnd.api+json',
    'multipart/mixed; boundary="a b"',
  ])('accepts the media type %j', (contentType) => {
    expect(acceptanceOf(createItemBodySchema, { ...validItemBody(), contentType }).contentType).toBe(
      contentType,
    );
  });

  it.each(['text/plain\nX-Injected: 1', 'text/plain; x=€', 'tiff', 'text/plain;'])(
    'refuses %j, which cannot be a Content-Type header',
    (contentType) => {
      expect(rejectionOf(createItemBodySchema, { ...validItemBody(), contentType }).message).toBe(
        'contentType: must be a media type such as image/tiff or text/csv; charset=utf-8',
      );
    },
  );
});
