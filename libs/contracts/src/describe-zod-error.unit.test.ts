import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalogBodySchema } from './catalogs.js';
import { describeZodError, formatIssuePath } from './describe-zod-error.js';
import { validCatalogBody, validLink } from './test-support/fixtures.js';
import { rejectionOf } from './test-support/parse.js';

describe('describeZodError', () => {
  it('names each failing field with its bound, in body order', () => {
    const body = {
      ...validCatalogBody(),
      title: 'x'.repeat(141),
      links: [{ ...validLink(), href: '', linkJson: [] }],
    };
    expect(rejectionOf(createCatalogBodySchema, body)).toEqual({
      message:
        'title: must be at most 140 characters; links[0].href: must be at least 1 character; links[0].linkJson: must be a JSON object',
      details: [
        { path: 'title', message: 'must be at most 140 characters' },
        { path: 'links[0].href', message: 'must be at least 1 character' },
        { path: 'links[0].linkJson', message: 'must be a JSON object' },
      ],
    });
  });

  it('gives one detail per unknown key, with its full path', () => {
    const body = { ...validCatalogBody(), links: [{ ...validLink(), url: 'x', 'x-extra': 1 }] };
    expect(rejectionOf(createCatalogBodySchema, body).details).toEqual([
      { path: 'links[0].url', message: 'is not an allowed field' },
      { path: 'links[0]["x-extra"]', message: 'is not an allowed field' },
    ]);
  });

  it('prints an issue of the value itself without a path', () => {
    expect(rejectionOf(createCatalogBodySchema, 7)).toEqual({
      message: 'must be a JSON object (the request body)',
      details: [{ path: '', message: 'must be a JSON object (the request body)' }],
    });
  });

  it("prefixes zod's own wording when a schema sets no message", () => {
    const result = z.object({ count: z.number() }).safeParse({ count: 'many' });
    expect(result.success).toBe(false);
    expect(describeZodError(result.error ?? new z.ZodError([])).message).toBe(
      'count: Invalid input: expected number, received string',
    );
  });
});

describe('formatIssuePath', () => {
  it.each([
    [[], ''],
    [['title'], 'title'],
    [['links', 0, 'href'], 'links[0].href'],
    [[0, 'a'], '[0].a'],
    [['extent', 'spatial', 'bbox', 2, 1], 'extent.spatial.bbox[2][1]'],
    [['a b', 'c'], '["a b"].c'],
  ])('%j → %s', (path, text) => {
    expect(formatIssuePath(path)).toBe(text);
  });
});
