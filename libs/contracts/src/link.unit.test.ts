import { describe, expect, it } from 'vitest';
import { createCatalogBodySchema } from './catalogs.js';
import { LINK_HREF_MAX, LINK_TEXT_MAX, linkSchema, MAX_LINKS } from './link.js';
import { UNSTORABLE_TEXT_MESSAGE } from './storable-text.js';
import { validCatalogBody, validLink } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';
import { unstorableTexts } from './test-support/storable-text.js';
import { itEnforcesStringBounds } from './test-support/string-bounds.js';

const textFields = ['title', 'rel', 'type', 'targetType'] as const;

describe('link object inside a create body', () => {
  const bodyWithLinkField = (field: string, value: unknown) => ({
    ...validCatalogBody(),
    links: [{ ...validLink(), [field]: value }],
  });

  for (const field of textFields) {
    itEnforcesStringBounds(createCatalogBodySchema, {
      path: `links[0].${field}`,
      max: LINK_TEXT_MAX,
      bodyWith: (value) => bodyWithLinkField(field, value),
    });
  }
  itEnforcesStringBounds(createCatalogBodySchema, {
    path: 'links[0].href',
    max: LINK_HREF_MAX,
    bodyWith: (value) => bodyWithLinkField('href', value),
  });

  it.each([
    ['an array', []],
    ['a string', '{}'],
    ['a number', 1],
    ['null', null],
  ])('linkJson: rejects %s', (_name, linkJson) => {
    expect(rejectionOf(createCatalogBodySchema, bodyWithLinkField('linkJson', linkJson)).message).toBe(
      'links[0].linkJson: must be a JSON object',
    );
  });

  it('linkJson: refuses nesting deeper than 32 levels, even 400,000 brackets deep, without overflowing', () => {
    const deep = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);
    expect(acceptanceOf(linkSchema, { ...validLink(), linkJson: { a: deep(31) } }).linkJson).toBeDefined();
    for (const levels of [32, 400_000]) {
      expect(
        rejectionOf(createCatalogBodySchema, bodyWithLinkField('linkJson', { a: deep(levels) })).message,
      ).toBe('links[0].linkJson: must not nest objects and arrays more than 32 levels deep');
    }
  });

  it('linkJson: accepts an empty object and nested objects, keeping their content', () => {
    const nested = { stac: { assets: [{ href: 'x' }], 'proj:epsg': 4326 }, flag: null };
    expect(acceptanceOf(linkSchema, { ...validLink(), linkJson: {} }).linkJson).toEqual({});
    expect(acceptanceOf(linkSchema, { ...validLink(), linkJson: nested }).linkJson).toEqual(nested);
  });

  it.each(unstorableTexts)('linkJson: rejects %s in a value at any depth, naming its path', (_name, text) => {
    const linkJson = { stac: { assets: [{ href: 'ok' }, { href: text }] } };
    expect(rejectionOf(createCatalogBodySchema, bodyWithLinkField('linkJson', linkJson)).message).toBe(
      `links[0].linkJson.stac.assets[1].href: ${UNSTORABLE_TEXT_MESSAGE}`,
    );
  });

  it.each(unstorableTexts)('linkJson: rejects %s in a key at any depth, naming it', (_name, text) => {
    const linkJson = { top: [{ [text]: 1 }] };
    expect(rejectionOf(createCatalogBodySchema, bodyWithLinkField('linkJson', linkJson)).details).toEqual([
      {
        path: `links[0].linkJson.top[0][${JSON.stringify(text)}]`,
        message: `key ${UNSTORABLE_TEXT_MESSAGE}`,
      },
    ]);
  });

  it('linkJson: rejects an unstorable top-level key and string value', () => {
    expect(rejectionOf(linkSchema, { ...validLink(), linkJson: { 'a\u0000': 1 } }).message).toBe(
      `linkJson["a\\u0000"]: key ${UNSTORABLE_TEXT_MESSAGE}`,
    );
    expect(rejectionOf(linkSchema, { ...validLink(), linkJson: { note: '\ud800' } }).message).toBe(
      `linkJson.note: ${UNSTORABLE_TEXT_MESSAGE}`,
    );
  });

  it('linkJson: reports only the first unstorable text, so the 400 stays short', () => {
    const linkJson = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, '\u0000']));
    expect(rejectionOf(linkSchema, { ...validLink(), linkJson }).details).toEqual([
      { path: 'linkJson.k0', message: UNSTORABLE_TEXT_MESSAGE },
    ]);
  });

  it('linkJson: accepts surrogate pairs, other control characters and non-string values', () => {
    const linkJson = { '🗺': ['😀', 'tab\there', 1, true, null, { deep: [[['ok']]] }] };
    expect(acceptanceOf(linkSchema, { ...validLink(), linkJson }).linkJson).toEqual(linkJson);
  });

  it('requires every field of the link', () => {
    const { linkJson: _linkJson, href: _href, ...partial } = validLink();
    expect(rejectionOf(linkSchema, partial).details).toEqual([
      { path: 'href', message: 'is required' },
      { path: 'linkJson', message: 'is required' },
    ]);
  });

  it('rejects a field that is not a string with what it must be', () => {
    expect(rejectionOf(linkSchema, { ...validLink(), rel: 5 }).message).toBe('rel: must be a string');
  });

  it('rejects unknown fields in a link, naming each', () => {
    expect(rejectionOf(linkSchema, { ...validLink(), method: 'GET' }).message).toBe(
      'method: is not an allowed field',
    );
  });

  it(`accepts ${MAX_LINKS} links and rejects ${MAX_LINKS + 1}`, () => {
    const links = (count: number) => Array.from({ length: count }, validLink);
    acceptanceOf(createCatalogBodySchema, { ...validCatalogBody(), links: links(MAX_LINKS) });
    expect(
      rejectionOf(createCatalogBodySchema, { ...validCatalogBody(), links: links(MAX_LINKS + 1) }).message,
    ).toBe(`links: must have at most ${MAX_LINKS} links`);
  });

  it('accepts an empty links array', () => {
    expect(acceptanceOf(createCatalogBodySchema, { ...validCatalogBody(), links: [] }).links).toEqual([]);
  });
});
