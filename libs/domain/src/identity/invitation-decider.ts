import { DomainError } from '../errors.js';
import type { Role } from '../access/roles.js';
import type { InvitationCancelled, InvitationCancelReason, OrganizationEvent } from './events.js';
import type { OrganizationCommand } from './organization-commands.js';
import type { Invitation } from './organization-state.js';
import { mayInviteAs, requireMemberRole, roleNeededToInvite, type LiveOrganization } from './member-role.js';

type InvitationCommand = Extract<
  OrganizationCommand,
  { type: 'InviteMember' | 'AcceptInvitation' | 'CancelInvitation' }
>;

/**
 * Invitations. There is no email verification, so an invitation is a bearer right for whoever signs up
 * with its address: it is only as good as its sender's right to make it. It ends when accepted, when it
 * expires, when an admin cancels it, and when its sender is removed or demoted below the role needed to
 * invite at its role (`invitationsEndedBy`, decided with the removal or the demotion).
 */
export function decideInvitation(command: InvitationCommand, state: LiveOrganization): OrganizationEvent[] {
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
      requireAcceptable(state, invitation, now);
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
    case 'CancelInvitation': {
      const { invitationId, now, actor } = command.data;
      requireMemberRole(state, actor, 'admin', 'cancel invitations');
      const invitation = state.invitations.get(invitationId);
      if (!invitation) throw new DomainError('NOT_FOUND', 'invitation not found');
      const needed = roleNeededToInvite(invitation.role);
      requireMemberRole(state, actor, needed, `cancel an invitation as ${invitation.role}`);
      if (invitation.status === 'accepted') {
        throw new DomainError(
          'INVALID_STATE',
          'the invitation was already accepted; remove the member instead',
        );
      }
      // Cancelled or expired already: it cannot be accepted, so there is nothing to record.
      if (invitation.status === 'cancelled' || invitation.expiresAt <= now) return [];
      return [cancelled(state, invitationId, 'cancelled')];
    }
  }
}

function requireAcceptable(state: LiveOrganization, invitation: Invitation, now: string): void {
  if (invitation.status === 'accepted')
    throw new DomainError('INVALID_STATE', 'the invitation was already accepted');
  if (invitation.status === 'cancelled')
    throw new DomainError('INVALID_STATE', 'the invitation was cancelled; ask for a new one');
  if (invitation.expiresAt <= now)
    throw new DomainError('INVALID_STATE', 'the invitation has expired; ask for a new one');
  // Invitations recorded before removals and demotions cancelled them carry no InvitationCancelled:
  // the sender's current role decides for them too.
  if (!mayInviteAs(state.members.get(invitation.invitedBy) ?? null, invitation.role)) {
    throw new DomainError(
      'INVALID_STATE',
      'the invitation is no longer valid: its sender may no longer invite at its role; ask for a new one',
    );
  }
}

/**
 * The open invitations `userId` sent that their role after a removal (`null`) or a role change no longer
 * allows, each ended with an `InvitationCancelled`. Expired ones are ended too: the decision needs no
 * clock, and a reader tells them apart by `expiresAt`.
 */
export function invitationsEndedBy(
  state: LiveOrganization,
  userId: string,
  roleAfter: Role | null,
): InvitationCancelled[] {
  const reason: InvitationCancelReason = roleAfter === null ? 'inviter-removed' : 'inviter-demoted';
  return [...state.invitations]
    .filter(
      ([, invitation]) =>
        invitation.invitedBy === userId &&
        invitation.status === 'open' &&
        !mayInviteAs(roleAfter, invitation.role),
    )
    .map(([invitationId]) => cancelled(state, invitationId, reason));
}

function cancelled(
  state: LiveOrganization,
  invitationId: string,
  reason: InvitationCancelReason,
): InvitationCancelled {
  return { type: 'InvitationCancelled', data: { orgId: state.id, invitationId, reason } };
}
