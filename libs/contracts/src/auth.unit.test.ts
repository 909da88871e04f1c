import { permissionActions as domainPermissionActions, roles } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { createApiKeyBodySchema } from './api-keys.js';
import { signInBodySchema, signUpBodySchema } from './auth.js';
import { organizationRoles } from './identity-fields.js';
import {
  createOrganizationBodySchema,
  hasPermissionBodySchema,
  inviteMemberBodySchema,
  permissionActions,
} from './organizations.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';

describe('identity contracts', () => {
  it('names the roles and permissions the domain decides with', () => {
    expect(organizationRoles).toEqual(roles);
    expect(permissionActions).toEqual(domainPermissionActions);
  });

  it('accepts a sign-up and names each bad field with its bound', () => {
    const body = { email: 'ada@example.org', password: 'correct horse', name: 'Ada' };
    expect(acceptanceOf(signUpBodySchema, body)).toEqual(body);
    expect(rejectionOf(signUpBodySchema, { email: 'nope', password: 'short', name: '  ' }).message).toBe(
      'email: must be an email address; password: must be at least 8 characters; name: must not be blank',
    );
    expect(rejectionOf(signUpBodySchema, { ...body, password: 'x'.repeat(129) }).message).toBe(
      'password: must be at most 128 characters',
    );
    expect(rejectionOf(signUpBodySchema, { ...body, admin: true }).message).toBe(
      'admin: is not an allowed field',
    );
  });

  it('leaves a wrong password to the sign-in (401), not to validation', () => {
    expect(acceptanceOf(signInBodySchema, { email: 'ada@example.org', password: 'x' })).toBeTruthy();
    expect(rejectionOf(signInBodySchema, { email: 'ada@example.org' }).message).toBe('password: is required');
  });

  it('takes roles by name only', () => {
    expect(rejectionOf(inviteMemberBodySchema, { email: 'b@example.org', role: 'root' }).message).toBe(
      'role: must be one of viewer, editor, admin, owner',
    );
    expect(
      rejectionOf(createApiKeyBodySchema, { name: 'ci', role: 'editor', expiresInDays: 0 }).message,
    ).toBe('expiresInDays: must be an integer from 1 to 365');
  });

  it('takes slugs of lower-case words', () => {
    expect(acceptanceOf(createOrganizationBodySchema, { name: 'Field team', slug: 'field-team-2' })).toEqual({
      name: 'Field team',
      slug: 'field-team-2',
    });
    expect(rejectionOf(createOrganizationBodySchema, { name: 'x', slug: 'Field_Team' }).details).toEqual([
      { path: 'slug', message: 'must be lower-case letters and digits, words separated by single hyphens' },
    ]);
  });

  it('asks about known resources and actions', () => {
    expect(acceptanceOf(hasPermissionBodySchema, { permission: { object: ['create', 'update'] } })).toEqual({
      permission: { object: ['create', 'update'] },
    });
    expect(rejectionOf(hasPermissionBodySchema, { permission: { object: ['fly'] } }).details[0]?.path).toBe(
      'permission.object[0]',
    );
    expect(rejectionOf(hasPermissionBodySchema, { permission: { planet: ['read'] } }).message).toMatch(
      /^permission.planet: is not an allowed field/,
    );
    expect(rejectionOf(hasPermissionBodySchema, { permission: {} }).message).toBe(
      'permission: must name at least one resource',
    );
  });
});
