import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';
import { roleRank, type Role } from '../access/roles.js';
import type { OrganizationEvent } from './events.js';
import { decideInvitation, invitationsEndedBy } from './invitation-decider.js';
import { requireMemberRole, type LiveOrganization } from './member-role.js';
import type { OrganizationCommand } from './organization-commands.js';
import {
  evolveOrganization,
  initialOrganizationState,
  type OrganizationState,
} from './organization-state.js';
import { decideWebhook } from './webhook-decider.js';

/**
 * Decides an organization command: the events to append, or a `DomainError`. Someone who is not a
 * member learns nothing about the organization (NOT_FOUND); a member without the role gets FORBIDDEN.
 */
export function decideOrganization(
  command: OrganizationCommand,
  state: OrganizationState,
): OrganizationEvent[] {
  if (command.type === 'CreateOrganization') {
    if (state.status !== 'absent') throw new DomainError('ALREADY_EXISTS', 'the organization already exists');
    const { orgId, name, slug, personal, ownerId } = command.data;
    return [
      { type: 'OrganizationCreated', data: { orgId, name, slug, personal, createdBy: ownerId } },
      { type: 'MemberAdded', data: { orgId, userId: ownerId, role: 'owner', invitationId: null } },
    ];
  }
  if (state.status !== 'live') throw new DomainError('NOT_FOUND', 'organization not found');
  switch (command.type) {
    case 'InviteMember':
    case 'AcceptInvitation':
    case 'CancelInvitation':
      return decideInvitation(command, state);
    case 'ChangeMemberRole': {
      const { userId, role, actor } = command.data;
      requireMemberRole(state, actor, 'admin', 'change roles');
      const current = requireMember(state, userId);
      if (current === role) return [];
      if (current === 'owner' || role === 'owner')
        requireMemberRole(state, actor, 'owner', 'make or unmake owners');
      if (current === 'owner') requireAnotherOwner(state, userId);
      return [
        { type: 'MemberRoleChanged', data: { orgId: state.id, userId, from: current, to: role } },
        ...invitationsEndedBy(state, userId, role),
      ];
    }
    case 'AppointOwner': {
      const { userId } = command.data;
      const current = state.members.get(userId);
      if (current === 'owner') return [];
      if (current === undefined) {
        return [
          { type: 'MemberAdded', data: { orgId: state.id, userId, role: 'owner', invitationId: null } },
        ];
      }
      return [{ type: 'MemberRoleChanged', data: { orgId: state.id, userId, from: current, to: 'owner' } }];
    }
    case 'RemoveMember': {
      const { userId, actor } = command.data;
      const leaving = userId === actor.userId;
      if (!leaving) requireMemberRole(state, actor, 'admin', 'remove members');
      const current = requireMember(state, userId);
      if (current === 'owner' && !leaving) requireMemberRole(state, actor, 'owner', 'remove an owner');
      if (current === 'owner') requireAnotherOwner(state, userId);
      return [
        { type: 'MemberRemoved', data: { orgId: state.id, userId, role: current } },
        ...invitationsEndedBy(state, userId, null),
      ];
    }
    case 'CreateApiKey': {
      const { keyId, name, role, prefix, expiresAt, actor } = command.data;
      const actorRole = requireMemberRole(state, actor, 'admin', 'create API keys');
      if (roleRank(role) > roleRank(actorRole)) {
        throw new DomainError(
          'FORBIDDEN',
          `an API key cannot have a higher role (${role}) than its creator's (${actorRole})`,
        );
      }
      return [
        {
          type: 'ApiKeyCreated',
          data: { orgId: state.id, keyId, name, role, createdBy: actor.userId, prefix, expiresAt },
        },
      ];
    }
    case 'RevokeApiKey': {
      const { keyId, actor } = command.data;
      requireMemberRole(state, actor, 'admin', 'revoke API keys');
      const key = state.apiKeys.get(keyId);
      if (!key) throw new DomainError('NOT_FOUND', 'API key not found');
      if (key.revoked) return [];
      return [{ type: 'ApiKeyRevoked', data: { orgId: state.id, keyId } }];
    }
    case 'RegisterWebhook':
    case 'RemoveWebhook':
    case 'EnableWebhook':
    case 'RotateWebhookSecret':
    case 'DisableWebhook':
      return decideWebhook(command, state);
  }
}

/** An organization's stream (`org-<id>`): its members, invitations, API keys and webhooks. */
export const organizationDecider: Decider<OrganizationCommand, OrganizationEvent, OrganizationState> = {
  decide: decideOrganization,
  evolve: evolveOrganization,
  initialState: initialOrganizationState,
};

function requireMember(state: LiveOrganization, userId: string): Role {
  const role = state.members.get(userId);
  if (role === undefined) throw new DomainError('NOT_FOUND', 'member not found');
  return role;
}

function requireAnotherOwner(state: LiveOrganization, userId: string): void {
  const owners = [...state.members].filter(([id, role]) => role === 'owner' && id !== userId);
  if (owners.length === 0) {
    throw new DomainError(
      'INVALID_STATE',
      'an organization keeps at least one owner; make someone else owner first',
    );
  }
}
