import { DomainError } from '../errors.js';
import { atLeast, roleRank, weakerRole, type Role } from '../access/roles.js';
import type { OrganizationEvent } from './events.js';
import type { OrganizationActor, OrganizationCommand } from './organization-commands.js';
import type { OrganizationState } from './organization-state.js';
import { decideWebhook } from './webhook-decider.js';

type LiveOrganization = Extract<OrganizationState, { status: 'live' }>;

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
    case 'InviteMember': {
      const { invitationId, email, role, expiresAt, actor } = command.data;
      requireMemberRole(state, actor, 'admin', 'invite members');
      if (role === 'owner') requireMemberRole(state, actor, 'owner', 'invite an owner');
      return [
        {
          type: 'MemberInvited',
          data: {
            orgId: state.id,
            invitationId,
            email: email.toLowerCase(),
            role,
            invitedBy: actor.userId,
            expiresAt,
          },
        },
      ];
    }
    case 'AcceptInvitation': {
      const { invitationId, now, actor } = command.data;
      const invitation = state.invitations.get(invitationId);
      // Someone else's invitation is reported as missing: its id tells nothing to anyone but the invitee.
      if (!invitation || invitation.email !== actor.email.toLowerCase()) {
        throw new DomainError('NOT_FOUND', 'invitation not found');
      }
      if (invitation.accepted) throw new DomainError('INVALID_STATE', 'the invitation was already accepted');
      if (invitation.expiresAt <= now)
        throw new DomainError('INVALID_STATE', 'the invitation has expired; ask for a new one');
      if (state.members.has(actor.userId)) {
        throw new DomainError('ALREADY_EXISTS', 'you are already a member of this organization');
      }
      return [
        {
          type: 'MemberAdded',
          data: { orgId: state.id, userId: actor.userId, role: invitation.role, invitationId },
        },
      ];
    }
    case 'ChangeMemberRole': {
      const { userId, role, actor } = command.data;
      requireMemberRole(state, actor, 'admin', 'change roles');
      const current = requireMember(state, userId);
      if (current === role) return [];
      if (current === 'owner' || role === 'owner')
        requireMemberRole(state, actor, 'owner', 'make or unmake owners');
      if (current === 'owner') requireAnotherOwner(state, userId);
      return [{ type: 'MemberRoleChanged', data: { orgId: state.id, userId, from: current, to: role } }];
    }
    case 'RemoveMember': {
      const { userId, actor } = command.data;
      const leaving = userId === actor.userId;
      if (!leaving) requireMemberRole(state, actor, 'admin', 'remove members');
      const current = requireMember(state, userId);
      if (current === 'owner' && !leaving) requireMemberRole(state, actor, 'owner', 'remove an owner');
      if (current === 'owner') requireAnotherOwner(state, userId);
      return [{ type: 'MemberRemoved', data: { orgId: state.id, userId, role: current } }];
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
    case 'DisableWebhook':
      return decideWebhook(command, state);
  }
}

/**
 * The actor's current role from the organization's own events, capped by their credential (an API key
 * never acts above its role), checked against `minimum`.
 */
function requireMemberRole(
  state: LiveOrganization,
  actor: OrganizationActor,
  minimum: Role,
  doing: string,
): Role {
  const member = state.members.get(actor.userId) ?? null;
  if (member === null) throw new DomainError('NOT_FOUND', 'organization not found');
  const role = actor.roleCap === null ? member : weakerRole(member, actor.roleCap);
  if (!atLeast(role, minimum))
    throw new DomainError('FORBIDDEN', `to ${doing} you need the ${minimum} role or higher`);
  return role;
}

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
