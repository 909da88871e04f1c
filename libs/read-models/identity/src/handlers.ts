import type {
  IdentityEvent,
  MemberAdded,
  MemberInvited,
  OrganizationCreated,
  OrganizationEvent,
  RecordedEvent,
  UserRegistered,
} from '@portal/domain';
import type { Sql } from '@portal/read-model-core';

/**
 * Evolve on rows. A user's events touch their own row only (a second disable keeps the first time); an organization's events first move `organizations.version`
 * forward to the event's revision and change nothing when it was already there, so applying an event
 * twice (or an old one late) never undoes a later one.
 */
export async function applyIdentityEvent(
  sql: Sql,
  event: IdentityEvent,
  recorded: RecordedEvent,
): Promise<void> {
  const at = recorded.metadata.occurredAt;
  switch (event.type) {
    case 'UserRegistered':
      return userRegistered(sql, event, at);
    case 'UserDisabled':
      await sql.query(`UPDATE users SET disabled_at = $2 WHERE id = $1 AND disabled_at IS NULL`, [
        event.data.userId,
        at,
      ]);
      return;
    case 'OrganizationCreated':
      return organizationCreated(sql, event, recorded);
    case 'MemberAdded':
    case 'MemberInvited':
    case 'InvitationCancelled':
    case 'MemberRoleChanged':
    case 'MemberRemoved':
    case 'ApiKeyCreated':
    case 'ApiKeyRevoked':
    case 'WebhookRegistered':
    case 'WebhookRemoved':
    case 'WebhookDisabled':
    case 'WebhookEnabled':
    case 'WebhookSecretRotated':
      if (await advanceOrganization(sql, event.data.orgId, recorded)) await applyToMembers(sql, event, at);
      return;
    default:
      return exhausted(event);
  }
}

function exhausted(event: never): never {
  throw new Error(`unhandled identity event ${JSON.stringify(event)}`);
}

async function userRegistered(sql: Sql, event: UserRegistered, at: string): Promise<void> {
  const { userId, email, name } = event.data;
  await sql.query(
    `INSERT INTO users (id, email, name, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`,
    [userId, email, name, at],
  );
}

async function organizationCreated(
  sql: Sql,
  event: OrganizationCreated,
  recorded: RecordedEvent,
): Promise<void> {
  const { orgId, name, slug, personal, createdBy } = event.data;
  const at = recorded.metadata.occurredAt;
  await sql.query(
    `INSERT INTO organizations (id, name, slug, personal, created_by, created_at, updated_at, version)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $7) ON CONFLICT (id) DO NOTHING`,
    [orgId, name, slug, personal, createdBy, at, recorded.revision.toString()],
  );
}

/** True when this event is news for the organization (its revision is past the row's version). */
async function advanceOrganization(sql: Sql, orgId: string, recorded: RecordedEvent): Promise<boolean> {
  const moved = await sql.query(
    `UPDATE organizations SET version = $2, updated_at = $3 WHERE id = $1 AND version < $2`,
    [orgId, recorded.revision.toString(), recorded.metadata.occurredAt],
  );
  return (moved.rowCount ?? 0) > 0;
}

async function applyToMembers(
  sql: Sql,
  event: Exclude<OrganizationEvent, OrganizationCreated>,
  at: string,
): Promise<void> {
  switch (event.type) {
    case 'MemberAdded':
      return memberAdded(sql, event, at);
    case 'MemberInvited':
      return memberInvited(sql, event, at);
    case 'InvitationCancelled':
      await sql.query(
        `UPDATE org_invitations SET cancelled_at = $2, cancel_reason = $3
          WHERE id = $1 AND accepted_at IS NULL AND cancelled_at IS NULL`,
        [event.data.invitationId, at, event.data.reason],
      );
      return;
    case 'MemberRoleChanged':
      await sql.query(
        `UPDATE org_members SET role = $3, updated_at = $4 WHERE org_id = $1 AND user_id = $2`,
        [event.data.orgId, event.data.userId, event.data.to, at],
      );
      return;
    case 'MemberRemoved':
      await sql.query(`DELETE FROM org_members WHERE org_id = $1 AND user_id = $2`, [
        event.data.orgId,
        event.data.userId,
      ]);
      return;
    // API keys live in the API's `auth` schema, webhook endpoints in its `webhooks` schema
    // (docs/webhooks.md); their events only move the organization's version.
    case 'ApiKeyCreated':
    case 'ApiKeyRevoked':
    case 'WebhookRegistered':
    case 'WebhookRemoved':
    case 'WebhookDisabled':
    case 'WebhookEnabled':
    case 'WebhookSecretRotated':
      return;
    default:
      return exhausted(event);
  }
}

async function memberAdded(sql: Sql, event: MemberAdded, at: string): Promise<void> {
  const { orgId, userId, role, invitationId } = event.data;
  await sql.query(
    `INSERT INTO org_members (org_id, user_id, role, joined_at, updated_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (org_id, user_id) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at`,
    [orgId, userId, role, at],
  );
  if (invitationId !== null) {
    await sql.query(
      `UPDATE org_invitations SET accepted_at = $2, accepted_by = $3 WHERE id = $1 AND accepted_at IS NULL`,
      [invitationId, at, userId],
    );
  }
}

async function memberInvited(sql: Sql, event: MemberInvited, at: string): Promise<void> {
  const { invitationId, orgId, email, role, invitedBy, expiresAt } = event.data;
  await sql.query(
    `INSERT INTO org_invitations (id, org_id, email, role, invited_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
    [invitationId, orgId, email, role, invitedBy, at, expiresAt],
  );
}
