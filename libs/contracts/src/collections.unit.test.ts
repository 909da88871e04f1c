import { describe, expect, it } from 'vitest';
import {
  collectionRecordSchema,
  createCollectionBodySchema,
  KEYWORD_MAX,
  LICENSE_MAX,
  MAX_KEYWORDS,
} from './collections.js';
import { DESCRIPTION_MAX, TITLE_MAX } from './portal-fields.js';
import { someId, validCatalogBody, validCollectionBody } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';
import { itEnforcesStringBounds } from './test-support/string-bounds.js';
import { itRefusesInvisibleTitles } from './test-support/visible-title.js';

describe('collection create body', () => {
  itEnforcesStringBounds(createCollectionBodySchema, {
    path: 'title',
    max: TITLE_MAX,
    bodyWith: (title) => ({ ...validCollectionBody(), title }),
  });
  itRefusesInvisibleTitles(createCollectionBodySchema, (title) => ({ ...validCollectionBody(), title }));
  itEnforcesStringBounds(createCollectionBodySchema, {
    path: 'description',
    max: DESCRIPTION_MAX,
    bodyWith: (description) => ({ ...validCollectionBody(), description }),
  });
  itEnforcesStringBounds(createCollectionBodySchema, {
    path: 'license',
    max: LICENSE_MAX,
    bodyWith: (license) => ({ ...validCollectionBody(), license }),
  });
  itEnforcesStringBounds(createCollectionBodySchema, {
    path: 'keywords[0]',
    max: KEYWORD_MAX,
    bodyWith: (keyword) => ({ ...validCollectionBody(), keywords: [keyword] }),
  });

  it('accepts the spec body without extensions, leaving defaults to the domain', () => {
    const parsed = acceptanceOf(createCollectionBodySchema, validCatalogBody());
    expect(Object.keys(parsed).sort()).toEqual(['description', 'links', 'title']);
  });

  it('accepts license, keywords and extent', () => {
    expect(acceptanceOf(createCollectionBodySchema, validCollectionBody())).toEqual(validCollectionBody());
  });

  it(`accepts ${MAX_KEYWORDS} keywords and rejects ${MAX_KEYWORDS + 1}`, () => {
    const keywords = (count: number) => Array.from({ length: count }, (_, i) => `k${i}`);
    acceptanceOf(createCollectionBodySchema, { ...validCollectionBody(), keywords: keywords(MAX_KEYWORDS) });
    expect(
      rejectionOf(createCollectionBodySchema, {
        ...validCollectionBody(),
        keywords: keywords(MAX_KEYWORDS + 1),
      }).message,
    ).toBe(`keywords: must have at most ${MAX_KEYWORDS} keywords`);
  });

  it('parentId must be a UUID', () => {
    expect(
      rejectionOf(createCollectionBodySchema, { ...validCollectionBody(), parentId: 'root' }).message,
    ).toBe('parentId: must be a UUID');
    expect(
      acceptanceOf(createCollectionBodySchema, { ...validCollectionBody(), parentId: someId }).parentId,
    ).toBe(someId);
  });

  it('rejects unknown top-level fields', () => {
    expect(
      rejectionOf(createCollectionBodySchema, { ...validCollectionBody(), licence: 'MIT' }).message,
    ).toBe('licence: is not an allowed field');
  });
});

describe('collection record', () => {
  const record = () => ({
    id: someId,
    type: 'collection',
    title: 'Temperature',
    description: 'Daily means',
    license: 'CC-BY-4.0',
    keywords: ['climate'],
    extent: { spatial: { bbox: [] }, temporal: { interval: [] } },
    links: [
      { href: `https://portal.example/api/v1/collections/${someId}`, rel: 'self', type: 'application/json' },
    ],
  });

  it('keeps the STAC title of a link, as the API emits it for its own links', () => {
    const link = { href: 'https://portal.example/', rel: 'root', type: 'application/json', title: 'Portal' };
    expect(acceptanceOf(collectionRecordSchema, { ...record(), links: [link] }).links).toEqual([link]);
  });

  it('accepts links without a title, as the contract shows them', () => {
    expect(acceptanceOf(collectionRecordSchema, record())).toEqual(record());
  });
});
