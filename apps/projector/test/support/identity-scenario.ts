import { randomUUID } from 'node:crypto';
import type { EventMetadata, ExpectedRevision, IdentityEvent, Role } from '@portal/domain';
import type { PlannedAppend } from './scenario.js';
import { toAppend } from './portal-events.js';

interface ModelOrganization {
  readonly orgId: string;
  revision: bigint;
  readonly members: Map<string, Role>;
  /** Open invitations by id, with the email they were sent to. */
  readonly invitations: Map<string, string>;
}

const roles: readonly Role[] = ['viewer', 'editor', 'admin', 'owner'];

/**
 * Identity events as the identity deciders would emit them: users registering, organizations created
 * with their owner, invitations sent, accepted and cancelled, roles changed, members removed, API keys.
 * Keeps a small model so every event is valid where it lands (revisions per stream included).
 */
export class IdentityScenario {
  private readonly users: string[] = [];
  private readonly organizations: ModelOrganization[] = [];
  /** Appends that must follow the last one (an organization's owner after its creation). */
  private readonly queued: PlannedAppend[] = [];

  constructor(
    private readonly next: () => number,
    private readonly meta: (orgId: string | null) => EventMetadata,
  ) {}

  plan(): PlannedAppend {
    const queued = this.queued.shift();
    if (queued) return queued;
    const roll = this.next();
    const organization = this.pick(this.organizations);
    if (this.users.length === 0 || roll < 0.2) return this.register();
    if (!organization || roll < 0.35) return this.createOrganization();
    return this.changeOrganization(organization) ?? this.register();
  }

  private pick<T>(items: readonly T[]): T | undefined {
    return items[Math.floor(this.next() * items.length)];
  }

  private register(): PlannedAppend {
    const userId = randomUUID();
    this.users.push(userId);
    const event: IdentityEvent = {
      type: 'UserRegistered',
      data: { userId, email: `user-${this.users.length}@example.org`, name: `User ${this.users.length}` },
    };
    return this.emit(`user-${userId}`, event, null, 'no_stream');
  }

  private createOrganization(): PlannedAppend {
    const owner = this.pick(this.users) ?? randomUUID();
    const orgId = randomUUID();
    const organization: ModelOrganization = {
      orgId,
      revision: 0n,
      members: new Map(),
      invitations: new Map(),
    };
    this.organizations.push(organization);
    organization.members.set(owner, 'owner');
    const number = this.organizations.length;
    this.queued.push(
      this.bump(organization, {
        type: 'MemberAdded',
        data: { orgId, userId: owner, role: 'owner', invitationId: null },
      }),
    );
    const event: IdentityEvent = {
      type: 'OrganizationCreated',
      data: {
        orgId,
        name: `Team ${number}`,
        slug: `team-${number}`,
        personal: this.next() < 0.3,
        createdBy: owner,
      },
    };
    return this.emit(`org-${orgId}`, event, orgId, 'no_stream');
  }

  private changeOrganization(organization: ModelOrganization): PlannedAppend | null {
    const { orgId } = organization;
    const roll = this.next();
    const members = [...organization.members.keys()];
    const outsiders = this.users.filter((userId) => !organization.members.has(userId));
    const invitation = this.pick([...organization.invitations.keys()]);
    const inviter = this.pick(members) ?? randomUUID();
    const role = this.pick(roles.slice(0, 3)) ?? 'viewer';
    if (roll < 0.3) {
      const invitationId = randomUUID();
      const email = `invitee-${invitationId.slice(0, 8)}@example.org`;
      organization.invitations.set(invitationId, email);
      return this.bump(organization, {
        type: 'MemberInvited',
        data: { orgId, invitationId, email, role, invitedBy: inviter, expiresAt: '2025-06-01T00:00:00.000Z' },
      });
    }
    const joining = this.pick(outsiders);
    if (roll < 0.5 && invitation && joining) {
      organization.invitations.delete(invitation);
      organization.members.set(joining, role);
      return this.bump(organization, {
        type: 'MemberAdded',
        data: { orgId, userId: joining, role, invitationId: invitation },
      });
    }
    if (roll < 0.6 && invitation) {
      organization.invitations.delete(invitation);
      return this.bump(organization, {
        type: 'InvitationCancelled',
        data: { orgId, invitationId: invitation, reason: 'cancelled' },
      });
    }
    const member = this.pick(members.filter((userId) => organization.members.get(userId) !== 'owner'));
    const from = member === undefined ? undefined : organization.members.get(member);
    if (roll < 0.75 && member && from) {
      const to = this.pick(roles.slice(0, 3).filter((candidate) => candidate !== from)) ?? 'viewer';
      organization.members.set(member, to);
      return this.bump(organization, {
        type: 'MemberRoleChanged',
        data: { orgId, userId: member, from, to },
      });
    }
    if (roll < 0.85 && member && from) {
      organization.members.delete(member);
      return this.bump(organization, { type: 'MemberRemoved', data: { orgId, userId: member, role: from } });
    }
    return this.bump(organization, {
      type: 'ApiKeyCreated',
      data: {
        orgId,
        keyId: randomUUID(),
        name: 'pipeline',
        role: 'editor',
        createdBy: inviter,
        prefix: 'pcs_abcdefgh',
        expiresAt: null,
      },
    });
  }

  private bump(organization: ModelOrganization, event: IdentityEvent): PlannedAppend {
    const expected = organization.revision;
    organization.revision += 1n;
    return this.emit(`org-${organization.orgId}`, event, organization.orgId, expected);
  }

  private emit(
    streamId: string,
    event: IdentityEvent,
    orgId: string | null,
    expectedRevision: ExpectedRevision,
  ): PlannedAppend {
    return { streamId, expectedRevision, event: toAppend(event, this.meta(orgId)) };
  }
}
