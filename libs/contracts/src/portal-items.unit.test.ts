import { describe, expect, it } from 'vitest';
import {
  deletePortalItemQuerySchema,
  movePortalItemBodySchema,
  portalItemListQuerySchema,
  updatePortalItemBodySchema,
} from './portal-items.js';
import { someId, validExtent, validLink } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';
import { itEnforcesStringBounds } from './test-support/string-bounds.js';
import { itRefusesInvisibleTitles } from './test-support/visible-title.js';

describe('update body', () => {
  itEnforcesStringBounds(updatePortalItemBodySchema, {
    path: 'title',
    max: 140,
    bodyWith: (title) => ({ title }),
  });
  itRefusesInvisibleTitles(updatePortalItemBodySchema, (title) => ({ title }));
  itEnforcesStringBounds(updatePortalItemBodySchema, {
    path: 'description',
    max: 1000,
    bodyWith: (description) => ({ description }),
  });
  itEnforcesStringBounds(updatePortalItemBodySchema, {
    path: 'links[0].rel',
    max: 140,
    bodyWith: (rel) => ({ links: [{ ...validLink(), rel }] }),
  });
  itEnforcesStringBounds(updatePortalItemBodySchema, {
    path: 'license',
    max: 140,
    bodyWith: (license) => ({ license }),
  });
  itEnforcesStringBounds(updatePortalItemBodySchema, {
    path: 'keywords[1]',
    max: 140,
    bodyWith: (keyword) => ({ keywords: ['climate', keyword] }),
  });

  it('needs at least one field', () => {
    expect(rejectionOf(updatePortalItemBodySchema, {}).message).toBe(
      'request body must change at least one of: title, description, links, license, keywords, extent, assets, geometry, bbox, datetime, start_datetime, end_datetime, tags, properties',
    );
  });

  it("takes an item's metadata: null clears a field, times are converted to UTC", () => {
    expect(
      acceptanceOf(updatePortalItemBodySchema, {
        geometry: null,
        bbox: null,
        datetime: '2024-01-31T14:00:00+02:00',
        tags: ['a'],
        properties: { 'eo:cloud_cover': 3, gone: null },
      }),
    ).toEqual({
      geometry: null,
      bbox: null,
      datetime: '2024-01-31T12:00:00.000Z',
      tags: ['a'],
      properties: { 'eo:cloud_cover': 3, gone: null },
    });
    expect(acceptanceOf(updatePortalItemBodySchema, { properties: null, datetime: null })).toEqual({
      properties: null,
      datetime: null,
    });
  });

  it("holds the create's rules between the time fields, since the patch gives the whole time", () => {
    expect(rejectionOf(updatePortalItemBodySchema, { start_datetime: '2024-01-01T00:00:00Z' }).message).toBe(
      'end_datetime: is required when start_datetime is given',
    );
    expect(
      rejectionOf(updatePortalItemBodySchema, {
        start_datetime: '2024-01-02T00:00:00Z',
        end_datetime: '2024-01-01T00:00:00Z',
      }).message,
    ).toBe('end_datetime: must not be before start_datetime');
  });

  it('keeps only the fields that were sent', () => {
    expect(acceptanceOf(updatePortalItemBodySchema, { keywords: [] })).toEqual({ keywords: [] });
  });

  it('accepts extent null, which returns to the computed extent', () => {
    expect(acceptanceOf(updatePortalItemBodySchema, { extent: null })).toEqual({ extent: null });
    expect(acceptanceOf(updatePortalItemBodySchema, { extent: validExtent() })).toEqual({
      extent: validExtent(),
    });
  });

  it('checks the same bounds as create', () => {
    expect(rejectionOf(updatePortalItemBodySchema, { license: '', keywords: [''] }).message).toBe(
      'license: must be at least 1 character; keywords[0]: must be at least 1 character',
    );
  });

  it('rejects unknown fields instead of ignoring them', () => {
    expect(rejectionOf(updatePortalItemBodySchema, { title: 'x', parentId: someId }).message).toBe(
      'parentId: is not an allowed field',
    );
  });
});

describe('move body', () => {
  it('accepts a UUID or null (root level)', () => {
    expect(acceptanceOf(movePortalItemBodySchema, { parentId: someId })).toEqual({ parentId: someId });
    expect(acceptanceOf(movePortalItemBodySchema, { parentId: null })).toEqual({ parentId: null });
  });

  it('requires parentId and checks it is a UUID', () => {
    expect(rejectionOf(movePortalItemBodySchema, {}).message).toBe('parentId: is required');
    expect(rejectionOf(movePortalItemBodySchema, { parentId: 'up' }).message).toBe(
      'parentId: must be a UUID',
    );
  });
});

describe('list query', () => {
  it('defaults limit to 50 and reads it from a string', () => {
    expect(acceptanceOf(portalItemListQuerySchema, {})).toEqual({ limit: 50 });
    expect(acceptanceOf(portalItemListQuerySchema, { limit: '1', cursor: 'abc' })).toEqual({
      limit: 1,
      cursor: 'abc',
    });
    expect(acceptanceOf(portalItemListQuerySchema, { limit: '1000' }).limit).toBe(1000);
  });

  it.each([['0'], ['1001'], ['2.5'], ['ten'], [['1', '2']]])('rejects limit %j', (limit) => {
    expect(rejectionOf(portalItemListQuerySchema, { limit }).message).toBe(
      'limit: must be an integer from 1 to 1000',
    );
  });

  it('filters by a known kind only', () => {
    expect(acceptanceOf(portalItemListQuerySchema, { kind: 'item' }).kind).toBe('item');
    expect(rejectionOf(portalItemListQuerySchema, { kind: 'folder' }).message).toBe(
      'kind: must be one of catalog, collection, item',
    );
  });

  it('ignores query parameters it does not know (caches and proxies add some)', () => {
    expect(acceptanceOf(portalItemListQuerySchema, { _: '123' })).toEqual({ limit: 50 });
  });
});

describe('delete query', () => {
  it('reads recursive as a boolean', () => {
    expect(acceptanceOf(deletePortalItemQuerySchema, {})).toEqual({ recursive: false });
    expect(acceptanceOf(deletePortalItemQuerySchema, { recursive: 'true' })).toEqual({ recursive: true });
    expect(rejectionOf(deletePortalItemQuerySchema, { recursive: '1' }).message).toBe(
      'recursive: must be "true" or "false"',
    );
  });
});
