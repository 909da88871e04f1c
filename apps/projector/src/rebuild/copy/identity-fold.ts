import type { OrganizationCreated, OrganizationEvent, RecordedEvent } from '@portal/domain';
import { asIdentityEvent } from '@portal/read-model-identity';
import type { CopyValue } from './copy-text.js';

interface UserRow {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly createdAt: string;
  disabledAt: string | null;
}

interface OrganizationRow {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly personal: boolean;
  readonly createdBy: string;
  readonly createdAt: string;
  updatedAt: string;
  version: bigint;
}

interface MemberRow {
  readonly orgId: string;
  readonly userId: string;
  role: string;
  readonly joinedAt: string;
  updatedAt: string;
}

interface InvitationRow {
  readonly id: string;
  readonly orgId: string;
  readonly email: string;
  readonly role: string;
  readonly invitedBy: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  acceptedAt: string | null;
  acceptedBy: string | null;
  cancelledAt: string | null;
  cancelReason: string | null;
}

/**
 * The identity read model folded in memory (identity/handlers.ts): users, organizations, members,
 * invitations, with the organization's version guarding each of its events as there.
 */
export class IdentityFold {
  private readonly users = new Map<string, UserRow>();
  private readonly organizations = new Map<string, OrganizationRow>();
  private readonly members = new Map<string, MemberRow>();
  private readonly invitations = new Map<string, InvitationRow>();

  apply(recorded: RecordedEvent): void {
    const event = asIdentityEvent(recorded);
    if (!event) return;
    const at = recorded.metadata.occurredAt;
    if (event.type === 'UserRegistered') {
      const { userId, email, name } = event.data;
      if (!this.users.has(userId)) {
        this.users.set(userId, { id: userId, email, name, createdAt: at, disabledAt: null });
      }
    } else if (event.type === 'UserDisabled') {
      const user = this.users.get(event.data.userId);
      if (user && user.disabledAt === null) user.disabledAt = at;
    } else if (event.type === 'OrganizationCreated') {
      const { orgId, name, slug, personal, createdBy } = event.data;
      if (this.organizations.has(orgId)) return;
      const row = { id: orgId, name, slug, personal, createdBy, createdAt: at, updatedAt: at };
      this.organizations.set(orgId, { ...row, version: recorded.revision });
    } else {
      this.organizationEvent(event, recorded);
    }
  }

  /** Every other event is the organization's: news only when past the organization's version. */
  private organizationEvent(
    event: Exclude<OrganizationEvent, OrganizationCreated>,
    recorded: RecordedEvent,
  ): void {
    const at = recorded.metadata.occurredAt;
    const organization = this.organizations.get(event.data.orgId);
    if (!organization || organization.version >= recorded.revision) return;
    organization.version = recorded.revision;
    organization.updatedAt = at;
    switch (event.type) {
      case 'MemberAdded': {
        const { orgId, userId, role, invitationId } = event.data;
        const key = `${orgId}/${userId}`;
        const member = this.members.get(key);
        if (member) {
          member.role = role;
          member.updatedAt = at;
        } else this.members.set(key, { orgId, userId, role, joinedAt: at, updatedAt: at });
        const invitation = invitationId === null ? undefined : this.invitations.get(invitationId);
        if (invitation && invitation.acceptedAt === null) {
          invitation.acceptedAt = at;
          invitation.acceptedBy = userId;
        }
        return;
      }
      case 'MemberInvited': {
        const { invitationId, orgId, email, role, invitedBy, expiresAt } = event.data;
        if (this.invitations.has(invitationId)) return;
        this.invitations.set(invitationId, {
          id: invitationId,
          orgId,
          email,
          role,
          invitedBy,
          createdAt: at,
          expiresAt,
          acceptedAt: null,
          acceptedBy: null,
          cancelledAt: null,
          cancelReason: null,
        });
        return;
      }
      case 'InvitationCancelled': {
        const invitation = this.invitations.get(event.data.invitationId);
        if (invitation && invitation.acceptedAt === null && invitation.cancelledAt === null) {
          invitation.cancelledAt = at;
          invitation.cancelReason = event.data.reason;
        }
        return;
      }
      case 'MemberRoleChanged': {
        const member = this.members.get(`${event.data.orgId}/${event.data.userId}`);
        if (member) {
          member.role = event.data.to;
          member.updatedAt = at;
        }
        return;
      }
      case 'MemberRemoved':
        this.members.delete(`${event.data.orgId}/${event.data.userId}`);
        return;
      // API keys and webhooks: only the organization's version moves.
      case 'ApiKeyCreated':
      case 'ApiKeyRevoked':
      case 'WebhookRegistered':
      case 'WebhookRemoved':
      case 'WebhookDisabled':
      case 'WebhookEnabled':
      case 'WebhookSecretRotated':
        return;
    }
  }

  /** Each table's columns and rows, for COPY. */
  tables(): { table: string; columns: readonly string[]; rows: Iterable<CopyValue[]> }[] {
    return [
      {
        table: 'users',
        columns: ['id', 'email', 'name', 'created_at', 'disabled_at'],
        rows: [...this.users.values()].map((u) => [u.id, u.email, u.name, u.createdAt, u.disabledAt]),
      },
      {
        table: 'organizations',
        columns: ['id', 'name', 'slug', 'personal', 'created_by', 'created_at', 'updated_at', 'version'],
        rows: [...this.organizations.values()].map((o) => [
          o.id,
          o.name,
          o.slug,
          o.personal ? 't' : 'f',
          o.createdBy,
          o.createdAt,
          o.updatedAt,
          o.version.toString(),
        ]),
      },
      {
        table: 'org_members',
        columns: ['org_id', 'user_id', 'role', 'joined_at', 'updated_at'],
        rows: [...this.members.values()].map((m) => [m.orgId, m.userId, m.role, m.joinedAt, m.updatedAt]),
      },
      {
        table: 'org_invitations',
        columns: [
          'id',
          'org_id',
          'email',
          'role',
          'invited_by',
          'created_at',
          'expires_at',
          'accepted_at',
          'accepted_by',
          'cancelled_at',
          'cancel_reason',
        ],
        rows: [...this.invitations.values()].map((i) => [
          i.id,
          i.orgId,
          i.email,
          i.role,
          i.invitedBy,
          i.createdAt,
          i.expiresAt,
          i.acceptedAt,
          i.acceptedBy,
          i.cancelledAt,
          i.cancelReason,
        ]),
      },
    ];
  }
}
