import { describe, expect, it } from 'vitest';
import {
  catalogPageSchema,
  createCatalogBodySchema,
  deleteCatalogsQuerySchema,
  MAX_DELETE_IDS,
} from './catalogs.js';
import { DESCRIPTION_MAX, TITLE_MAX } from './portal-fields.js';
import { someId, validCatalogBody } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';
import { itEnforcesStringBounds } from './test-support/string-bounds.js';
import { itRefusesInvisibleTitles } from './test-support/visible-title.js';

describe('catalog create body', () => {
  itEnforcesStringBounds(createCatalogBodySchema, {
    path: 'title',
    max: TITLE_MAX,
    bodyWith: (title) => ({ ...validCatalogBody(), title }),
  });
  itRefusesInvisibleTitles(createCatalogBodySchema, (title) => ({ ...validCatalogBody(), title }));
  itEnforcesStringBounds(createCatalogBodySchema, {
    path: 'description',
    max: DESCRIPTION_MAX,
    bodyWith: (description) => ({ ...validCatalogBody(), description }),
  });

  it('parentId: accepts a UUID and leaves it out when absent', () => {
    expect(acceptanceOf(createCatalogBodySchema, { ...validCatalogBody(), parentId: someId }).parentId).toBe(
      someId,
    );
    expect('parentId' in acceptanceOf(createCatalogBodySchema, validCatalogBody())).toBe(false);
  });

  it.each([['not-a-uuid'], [''], [`${someId}0`], [null], [42]])('parentId: rejects %j', (parentId) => {
    expect(rejectionOf(createCatalogBodySchema, { ...validCatalogBody(), parentId }).message).toBe(
      'parentId: must be a UUID',
    );
  });

  it('names every missing required field', () => {
    expect(rejectionOf(createCatalogBodySchema, {}).message).toBe(
      'title: is required; description: is required; links: is required',
    );
  });

  it('rejects unknown top-level fields so typos are caught', () => {
    expect(
      rejectionOf(createCatalogBodySchema, { ...validCatalogBody(), titel: 'x', parent: someId }).details,
    ).toEqual([
      { path: 'titel', message: 'is not an allowed field' },
      { path: 'parent', message: 'is not an allowed field' },
    ]);
  });

  it.each([[null], [[]], ['text']])('rejects a body that is not an object: %j', (body) => {
    expect(rejectionOf(createCatalogBodySchema, body).message).toBe(
      'must be a JSON object (the request body)',
    );
  });
});

describe('delete catalogs query', () => {
  const otherId = '0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d';

  it('accepts comma-separated, repeated and mixed ids, once each', () => {
    expect(acceptanceOf(deleteCatalogsQuerySchema, { ids: `${someId},${otherId}` }).ids).toEqual([
      someId,
      otherId,
    ]);
    expect(acceptanceOf(deleteCatalogsQuerySchema, { ids: [someId, otherId] }).ids).toEqual([
      someId,
      otherId,
    ]);
    expect(acceptanceOf(deleteCatalogsQuerySchema, { ids: [`${someId}, ${otherId}`, someId] }).ids).toEqual([
      someId,
      otherId,
    ]);
  });

  it('reads recursive as a boolean, false when absent', () => {
    expect(acceptanceOf(deleteCatalogsQuerySchema, { ids: someId }).recursive).toBe(false);
    expect(acceptanceOf(deleteCatalogsQuerySchema, { ids: someId, recursive: 'true' }).recursive).toBe(true);
    expect(acceptanceOf(deleteCatalogsQuerySchema, { ids: someId, recursive: 'false' }).recursive).toBe(
      false,
    );
    expect(rejectionOf(deleteCatalogsQuerySchema, { ids: someId, recursive: 'yes' }).message).toBe(
      'recursive: must be "true" or "false"',
    );
  });

  it('requires at least one id', () => {
    expect(rejectionOf(deleteCatalogsQuerySchema, {}).message).toBe('ids: is required');
    expect(rejectionOf(deleteCatalogsQuerySchema, { ids: '' }).message).toBe('ids: must have at least 1 id');
    expect(rejectionOf(deleteCatalogsQuerySchema, { ids: ',' }).message).toBe('ids: must have at least 1 id');
  });

  it(`accepts ${MAX_DELETE_IDS} ids and rejects ${MAX_DELETE_IDS + 1}`, () => {
    const ids = (count: number) =>
      Array.from({ length: count }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join(
        ',',
      );
    expect(acceptanceOf(deleteCatalogsQuerySchema, { ids: ids(MAX_DELETE_IDS) }).ids).toHaveLength(
      MAX_DELETE_IDS,
    );
    expect(rejectionOf(deleteCatalogsQuerySchema, { ids: ids(MAX_DELETE_IDS + 1) }).message).toBe(
      `ids: must have at most ${MAX_DELETE_IDS} ids`,
    );
  });

  it('names the position of an id that is not a UUID', () => {
    expect(rejectionOf(deleteCatalogsQuerySchema, { ids: `${someId},nope` }).message).toBe(
      'ids[1]: must be a UUID',
    );
  });
});

describe('catalog page', () => {
  it('keeps the media type of the next-page link, as the API emits it', () => {
    const page = {
      items: [],
      next: 'abc',
      links: [
        {
          rel: 'next',
          href: 'https://portal.example/api/v1/portal/catalogs/?cursor=abc',
          type: 'application/json',
        },
      ],
    };
    expect(acceptanceOf(catalogPageSchema, page)).toEqual(page);
  });

  it('accepts a next-page link without a type, and an empty last page', () => {
    const page = {
      items: [],
      next: 'abc',
      links: [{ rel: 'next', href: '/api/v1/portal/catalogs/?cursor=abc' }],
    };
    expect(acceptanceOf(catalogPageSchema, page)).toEqual(page);
    expect(acceptanceOf(catalogPageSchema, { items: [], next: null, links: [] }).next).toBeNull();
  });
});
