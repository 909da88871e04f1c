import { describe, expect, it } from 'vitest';
import { changeVisibilityBodySchema, shareBodySchema, shareParamsSchema } from './access.js';
import { createCatalogBodySchema } from './catalogs.js';
import { createCollectionBodySchema } from './collections.js';
import { createItemBodySchema } from './items.js';
import { someId, validCatalogBody, validCollectionBody, validItemBody } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';

describe('visibility on create bodies', () => {
  const bodies = [
    ['catalog', createCatalogBodySchema, validCatalogBody()],
    ['collection', createCollectionBodySchema, validCollectionBody()],
    ['item', createItemBodySchema, validItemBody()],
  ] as const;

  it.each(bodies)('%s: accepts each visibility and leaves it out when absent', (_kind, schema, body) => {
    for (const visibility of ['private', 'org', 'public']) {
      expect(acceptanceOf(schema, { ...body, visibility })).toMatchObject({ visibility });
    }
    expect('visibility' in acceptanceOf(schema, body)).toBe(false);
  });

  it.each(bodies)('%s: names the allowed values', (_kind, schema, body) => {
    expect(rejectionOf(schema, { ...body, visibility: 'secret' }).message).toBe(
      'visibility: must be one of private, org, public',
    );
  });
});

describe('visibility and share bodies', () => {
  it('needs a visibility and nothing else', () => {
    expect(acceptanceOf(changeVisibilityBodySchema, { visibility: 'public' })).toEqual({
      visibility: 'public',
    });
    expect(rejectionOf(changeVisibilityBodySchema, {}).message).toBe('visibility: is required');
    expect(rejectionOf(changeVisibilityBodySchema, { visibility: 'org', extra: 1 }).message).toMatch(/extra/);
  });

  it('takes a user or an organization and a permission', () => {
    const share = { principal: { type: 'organization', id: someId }, permission: 'editor' };
    expect(acceptanceOf(shareBodySchema, share)).toEqual(share);
    expect(
      rejectionOf(shareBodySchema, { principal: { type: 'group', id: 'x' }, permission: 'owner' }).message,
    ).toBe(
      'principal.type: must be one of user, organization; principal.id: must be a UUID; permission: must be one of viewer, editor',
    );
    expect(rejectionOf(shareBodySchema, { permission: 'viewer' }).message).toBe('principal: is required');
  });

  it('reads the path of a share', () => {
    expect(acceptanceOf(shareParamsSchema, { id: someId, type: 'user', principalId: someId })).toEqual({
      id: someId,
      type: 'user',
      principalId: someId,
    });
    expect(rejectionOf(shareParamsSchema, { id: someId, type: 'users', principalId: 'x' }).message).toBe(
      'type: must be one of user, organization; principalId: must be a UUID',
    );
  });
});
