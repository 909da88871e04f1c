import { describe, expect, it } from 'vitest';
import { createCatalogBodySchema } from './catalogs.js';
import { LINK_HREF_MAX, LINK_TEXT_MAX, linkSchema, MAX_LINKS } from './link.js';
import { validCatalogBody, validLink } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';
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

  it('linkJson: accepts an empty object and nested objects, keeping their content', () => {
    const nested = { stac: { assets: [{ href: 'x' }], 'proj:epsg': 4326 }, flag: null };
    expect(acceptanceOf(linkSchema, { ...validLink(), linkJson: {} }).linkJson).toEqual({});
    expect(acceptanceOf(linkSchema, { ...validLink(), linkJson: nested }).linkJson).toEqual(nested);
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
