import { describe, expect, it } from 'vitest';
import type { Role } from '../access/roles.js';
import { DomainError, type DomainErrorCode } from '../errors.js';
import type { MemberInvited, OrganizationEvent } from './events.js';
import type { OrganizationActor, OrganizationCommand } from './organization-commands.js';
import { decideOrganization } from './organization-decider.js';
import { foldOrganization } from './organization-state.js';

/** Given events, when a command, then events (or an error): invitations and how they end. */

const newId = (): string => crypto.randomUUID();
const orgId = newId();
const owner = newId();
const coOwner = newId();
const admin = newId();
const editor = newId();

const NOW = '2025-06-01T12:00:00.000Z';
const LATER = '2025-06-08T12:00:00.000Z';
const EARLIER = '2025-05-31T12:00:00.000Z';

const organization: OrganizationEvent[] = [
  {
    type: 'OrganizationCreated',
    data: { orgId, name: 'Team', slug: 'team', personal: false, createdBy: owner },
  },
  { type: 'MemberAdded', data: { orgId, userId: owner, role: 'owner', invitationId: null } },
  { type: 'MemberAdded', data: { orgId, userId: coOwner, role: 'owner', invitationId: newId() } },
  { type: 'MemberAdded', data: { orgId, userId: admin, role: 'admin', invitationId: newId() } },
  { type: 'MemberAdded', data: { orgId, userId: editor, role: 'editor', invitationId: newId() } },
];

function actor(
  userId: string,
  email = `${userId}@example.org`,
  roleCap: Role | null = null,
): OrganizationActor {
  return { userId, email, roleCap };
}

function invited(by: string, role: Role, fields: { email?: string; expiresAt?: string } = {}): MemberInvited {
  return {
    type: 'MemberInvited',
    data: {
      orgId,
      invitationId: newId(),
      email: fields.email ?? `x-${newId()}@example.org`,
      role,
      invitedBy: by,
      expiresAt: fields.expiresAt ?? LATER,
    },
  };
}

function decide(given: readonly OrganizationEvent[], command: OrganizationCommand): OrganizationEvent[] {
  return decideOrganization(command, foldOrganization([...organization, ...given]));
}

function refusal(given: readonly OrganizationEvent[], command: OrganizationCommand): DomainErrorCode {
  try {
    decide(given, command);
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  throw new Error('the command was not refused');
}

const accept = (invitation: MemberInvited, userId = newId(), now = NOW): OrganizationCommand => ({
  type: 'AcceptInvitation',
  data: { invitationId: invitation.data.invitationId, now, actor: actor(userId, invitation.data.email) },
});

const cancel = (invitationId: string, by: OrganizationActor, now = NOW): OrganizationCommand => ({
  type: 'CancelInvitation',
  data: { invitationId, now, actor: by },
});

const removal = (userId: string, by = actor(owner)): OrganizationCommand => ({
  type: 'RemoveMember',
  data: { userId, actor: by },
});

const roleChange = (userId: string, role: Role, by = actor(owner)): OrganizationCommand => ({
  type: 'ChangeMemberRole',
  data: { userId, role, actor: by },
});

describe('invitation decider: a removed or demoted sender ends their invitations', () => {
  it('cancels the open invitations of a removed admin with the removal, and refuses them afterwards', () => {
    const asAdmin = invited(admin, 'admin', { email: 'x@example.org' });
    const asViewer = invited(admin, 'viewer');
    const byOwner = invited(owner, 'editor');
    const given = [asAdmin, asViewer, byOwner];

    const events = decide(given, removal(admin));
    expect(events).toEqual([
      { type: 'MemberRemoved', data: { orgId, userId: admin, role: 'admin' } },
      {
        type: 'InvitationCancelled',
        data: { orgId, invitationId: asAdmin.data.invitationId, reason: 'inviter-removed' },
      },
      {
        type: 'InvitationCancelled',
        data: { orgId, invitationId: asViewer.data.invitationId, reason: 'inviter-removed' },
      },
    ]);
    // The attack: the invitee signs up with the invited address after the removal.
    expect(refusal([...given, ...events], accept(asAdmin))).toBe('INVALID_STATE');
    // Another sender's invitation is untouched.
    expect(decide([...given, ...events], accept(byOwner))).toMatchObject([{ type: 'MemberAdded' }]);
  });

  it('cancels them when the sender leaves on their own too', () => {
    const invitation = invited(admin, 'editor');
    expect(decide([invitation], removal(admin, actor(admin)))).toContainEqual({
      type: 'InvitationCancelled',
      data: { orgId, invitationId: invitation.data.invitationId, reason: 'inviter-removed' },
    });
  });

  it('cancels on a demotion only the invitations the new role may not send', () => {
    const asOwner = invited(coOwner, 'owner');
    const asAdmin = invited(coOwner, 'admin');
    const toAdmin = decide([asOwner, asAdmin], roleChange(coOwner, 'admin'));
    expect(toAdmin).toEqual([
      { type: 'MemberRoleChanged', data: { orgId, userId: coOwner, from: 'owner', to: 'admin' } },
      {
        type: 'InvitationCancelled',
        data: { orgId, invitationId: asOwner.data.invitationId, reason: 'inviter-demoted' },
      },
    ]);

    const toEditor = decide([asOwner, asAdmin, ...toAdmin], roleChange(coOwner, 'editor'));
    expect(toEditor).toEqual([
      { type: 'MemberRoleChanged', data: { orgId, userId: coOwner, from: 'admin', to: 'editor' } },
      {
        type: 'InvitationCancelled',
        data: { orgId, invitationId: asAdmin.data.invitationId, reason: 'inviter-demoted' },
      },
    ]);
  });

  it('leaves accepted and cancelled invitations alone, and cancels nothing on a promotion', () => {
    const accepted = invited(admin, 'editor');
    const joined: OrganizationEvent = {
      type: 'MemberAdded',
      data: { orgId, userId: newId(), role: 'editor', invitationId: accepted.data.invitationId },
    };
    const withdrawn = invited(admin, 'viewer');
    const cancelled: OrganizationEvent = {
      type: 'InvitationCancelled',
      data: { orgId, invitationId: withdrawn.data.invitationId, reason: 'cancelled' },
    };
    const given = [accepted, joined, withdrawn, cancelled];
    expect(decide(given, removal(admin))).toEqual([
      { type: 'MemberRemoved', data: { orgId, userId: admin, role: 'admin' } },
    ]);
    expect(decide([invited(admin, 'admin')], roleChange(admin, 'owner'))).toHaveLength(1);
  });

  it('refuses an invitation whose sender lost the right without a recorded cancellation', () => {
    // Recorded before removals cancelled invitations: the removal stands alone in the stream.
    const invitation = invited(admin, 'admin');
    const removedAlone: OrganizationEvent = {
      type: 'MemberRemoved',
      data: { orgId, userId: admin, role: 'admin' },
    };
    expect(refusal([invitation, removedAlone], accept(invitation))).toBe('INVALID_STATE');
    const ownerInvite = invited(coOwner, 'owner');
    const demotedAlone: OrganizationEvent = {
      type: 'MemberRoleChanged',
      data: { orgId, userId: coOwner, from: 'owner', to: 'admin' },
    };
    expect(refusal([ownerInvite, demotedAlone], accept(ownerInvite))).toBe('INVALID_STATE');
  });
});

describe('invitation decider: acceptance', () => {
  it('adds the invitee with the invited role before the expiry', () => {
    const invitation = invited(admin, 'editor');
    const userId = newId();
    expect(decide([invitation], accept(invitation, userId))).toEqual([
      {
        type: 'MemberAdded',
        data: { orgId, userId, role: 'editor', invitationId: invitation.data.invitationId },
      },
    ]);
  });

  it('refuses an expired invitation, at the very instant of expiry too', () => {
    const invitation = invited(admin, 'editor', { expiresAt: NOW });
    expect(refusal([invitation], accept(invitation, newId(), NOW))).toBe('INVALID_STATE');
    expect(refusal([invitation], accept(invitation, newId(), LATER))).toBe('INVALID_STATE');
    expect(decide([invitation], accept(invitation, newId(), EARLIER))).toHaveLength(1);
  });

  it('refuses a cancelled invitation and one already accepted', () => {
    const invitation = invited(admin, 'editor');
    const cancelled: OrganizationEvent = {
      type: 'InvitationCancelled',
      data: { orgId, invitationId: invitation.data.invitationId, reason: 'cancelled' },
    };
    expect(refusal([invitation, cancelled], accept(invitation))).toBe('INVALID_STATE');
    const joined: OrganizationEvent = {
      type: 'MemberAdded',
      data: { orgId, userId: newId(), role: 'editor', invitationId: invitation.data.invitationId },
    };
    expect(refusal([invitation, joined], accept(invitation))).toBe('INVALID_STATE');
  });

  it("answers NOT_FOUND to someone with another email, whatever the invitation's state", () => {
    const invitation = invited(admin, 'editor');
    const command: OrganizationCommand = {
      type: 'AcceptInvitation',
      data: { invitationId: invitation.data.invitationId, now: NOW, actor: actor(newId()) },
    };
    expect(refusal([invitation], command)).toBe('NOT_FOUND');
  });
});

describe('invitation decider: cancelling', () => {
  it('lets an admin cancel an open invitation', () => {
    const invitation = invited(owner, 'editor');
    expect(decide([invitation], cancel(invitation.data.invitationId, actor(admin)))).toEqual([
      {
        type: 'InvitationCancelled',
        data: { orgId, invitationId: invitation.data.invitationId, reason: 'cancelled' },
      },
    ]);
  });

  it('keeps invitations as owner to owners, and editors out', () => {
    const asOwner = invited(owner, 'owner');
    expect(refusal([asOwner], cancel(asOwner.data.invitationId, actor(admin)))).toBe('FORBIDDEN');
    expect(refusal([asOwner], cancel(asOwner.data.invitationId, actor(owner, undefined, 'admin')))).toBe(
      'FORBIDDEN',
    );
    expect(decide([asOwner], cancel(asOwner.data.invitationId, actor(coOwner)))).toHaveLength(1);
    const asViewer = invited(admin, 'viewer');
    expect(refusal([asViewer], cancel(asViewer.data.invitationId, actor(editor)))).toBe('FORBIDDEN');
  });

  it('records nothing for an invitation already cancelled or expired, and refuses an accepted one', () => {
    const invitation = invited(admin, 'viewer', { expiresAt: NOW });
    expect(decide([invitation], cancel(invitation.data.invitationId, actor(owner), NOW))).toEqual([]);
    const open = invited(admin, 'viewer');
    const cancelled: OrganizationEvent = {
      type: 'InvitationCancelled',
      data: { orgId, invitationId: open.data.invitationId, reason: 'cancelled' },
    };
    expect(decide([open, cancelled], cancel(open.data.invitationId, actor(owner)))).toEqual([]);
    const joined: OrganizationEvent = {
      type: 'MemberAdded',
      data: { orgId, userId: newId(), role: 'viewer', invitationId: open.data.invitationId },
    };
    expect(refusal([open, joined], cancel(open.data.invitationId, actor(owner)))).toBe('INVALID_STATE');
  });

  it('answers NOT_FOUND for an unknown invitation, and to someone who is not a member', () => {
    expect(refusal([], cancel(newId(), actor(admin)))).toBe('NOT_FOUND');
    const invitation = invited(admin, 'viewer');
    expect(refusal([invitation], cancel(invitation.data.invitationId, actor(newId())))).toBe('NOT_FOUND');
  });
});
