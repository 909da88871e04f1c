import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { decideOrganization } from '../identity/organization-decider.js';
import { foldOrganization } from '../identity/organization-state.js';
import type { OrganizationCommand } from '../identity/organization-commands.js';
import { roleHasPermissions, rolePermissions } from './role-permissions.js';
import { roles, type Role } from './roles.js';

describe('role permissions', () => {
  it('grants viewers reading only', () => {
    expect(roleHasPermissions('viewer', { object: ['read'], member: ['list'] })).toBe(true);
    expect(roleHasPermissions('viewer', { object: ['create'] })).toBe(false);
    expect(roleHasPermissions('viewer', { object: ['read', 'update'] })).toBe(false);
  });

  it('lets editors change objects but not members, keys or sharing', () => {
    expect(roleHasPermissions('editor', { object: ['create', 'update', 'delete', 'upload'] })).toBe(true);
    expect(roleHasPermissions('editor', { object: ['share'] })).toBe(false);
    expect(roleHasPermissions('editor', { member: ['invite'] })).toBe(false);
    expect(roleHasPermissions('editor', { apiKey: ['create'] })).toBe(false);
  });

  it('keeps making owners to owners', () => {
    expect(roleHasPermissions('admin', { member: ['invite', 'remove'], apiKey: ['create'] })).toBe(true);
    expect(roleHasPermissions('admin', { member: ['manage-owners'] })).toBe(false);
    expect(roleHasPermissions('owner', { member: ['manage-owners'], audit: ['read'] })).toBe(true);
  });

  it('grants nothing without a role', () => {
    expect(roleHasPermissions(null, { object: ['read'] })).toBe(false);
  });

  it('never grants a weaker role more than a stronger one', () => {
    for (const [index, role] of roles.entries()) {
      const stronger = roles[index + 1];
      if (!stronger) continue;
      for (const [resource, actions] of Object.entries(rolePermissions[role])) {
        expect(roleHasPermissions(stronger, { [resource]: actions })).toBe(true);
      }
    }
  });

  /** The table and the organization decider must agree on who may manage members and keys. */
  it.each(roles)('agrees with the organization decider for %s', (role: Role) => {
    const orgId = 'org-1';
    const state = foldOrganization([
      {
        type: 'OrganizationCreated',
        data: { orgId, name: 'Org', slug: 'org', personal: false, createdBy: 'owner' },
      },
      { type: 'MemberAdded', data: { orgId, userId: 'owner', role: 'owner', invitationId: null } },
      { type: 'MemberAdded', data: { orgId, userId: 'actor', role, invitationId: null } },
      { type: 'MemberAdded', data: { orgId, userId: 'other', role: 'viewer', invitationId: null } },
    ]);
    const actor = { userId: 'actor', email: 'actor@example.org', roleCap: null };
    const allowed = (command: OrganizationCommand): boolean => {
      try {
        decideOrganization(command, state);
        return true;
      } catch (error) {
        if (error instanceof DomainError && error.code === 'FORBIDDEN') return false;
        throw error;
      }
    };
    const invite: OrganizationCommand = {
      type: 'InviteMember',
      data: { invitationId: 'i', email: 'x@example.org', role: 'viewer', expiresAt: '2999-01-01', actor },
    };
    const changeRole: OrganizationCommand = {
      type: 'ChangeMemberRole',
      data: { userId: 'other', role: 'editor', actor },
    };
    const remove: OrganizationCommand = { type: 'RemoveMember', data: { userId: 'other', actor } };
    const createKey: OrganizationCommand = {
      type: 'CreateApiKey',
      data: { keyId: 'k', name: 'k', role: 'viewer', prefix: 'pcs_x', expiresAt: null, actor },
    };
    const makeOwner: OrganizationCommand = {
      type: 'ChangeMemberRole',
      data: { userId: 'other', role: 'owner', actor },
    };
    expect(allowed(invite)).toBe(roleHasPermissions(role, { member: ['invite'] }));
    expect(allowed(changeRole)).toBe(roleHasPermissions(role, { member: ['update-role'] }));
    expect(allowed(remove)).toBe(roleHasPermissions(role, { member: ['remove'] }));
    expect(allowed(createKey)).toBe(roleHasPermissions(role, { apiKey: ['create'] }));
    expect(allowed(makeOwner)).toBe(roleHasPermissions(role, { member: ['manage-owners'] }));
  });
});
