import type { OrganizationCreated, RecordedEvent, UserRegistered } from '@portal/domain';
import type { Footprint, Sql } from '@portal/read-model-core';
import { asIdentityEvent } from './events.js';

/**
 * The identity events a run may hold: the two that only insert a row keyed by their own id. Every other
 * identity event changes a row an earlier event made (most move their organization's version first)
 * and goes alone.
 */
export function identityFootprint(recorded: RecordedEvent): Footprint | null {
  const event = asIdentityEvent(recorded);
  if (!event) return {};
  switch (event.type) {
    case 'UserRegistered':
      return { changes: [`users:${event.data.userId}`] };
    case 'OrganizationCreated':
      return { changes: [`organizations:${event.data.orgId}`] };
    case 'UserDisabled':
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
      return null;
    default:
      return exhausted(event);
  }
}

function exhausted(event: never): never {
  throw new Error(`unhandled identity event ${JSON.stringify(event)}`);
}

const insertUsers = `
  INSERT INTO users (id, email, name, created_at)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[])
  ON CONFLICT (id) DO NOTHING`;

const insertOrganizations = `
  INSERT INTO organizations (id, name, slug, personal, created_by, created_at, updated_at, version)
  SELECT id, name, slug, personal, created_by, at, at, version
    FROM unnest($1::uuid[], $2::text[], $3::text[], $4::boolean[], $5::uuid[], $6::timestamptz[], $7::bigint[])
         AS o(id, name, slug, personal, created_by, at, version)
  ON CONFLICT (id) DO NOTHING`;

/** The users and organizations of a run, one insert per table (none when the run has none). */
export async function applyIdentityRun(sql: Sql, events: readonly RecordedEvent[]): Promise<void> {
  const users: [UserRegistered['data'], string][] = [];
  const organizations: [OrganizationCreated['data'], RecordedEvent][] = [];
  for (const recorded of events) {
    const event = asIdentityEvent(recorded);
    if (event?.type === 'UserRegistered') users.push([event.data, recorded.metadata.occurredAt]);
    if (event?.type === 'OrganizationCreated') organizations.push([event.data, recorded]);
  }
  if (users.length > 0) {
    await sql.query({
      name: 'projector_identity_insert_users',
      text: insertUsers,
      values: [
        users.map(([user]) => user.userId),
        users.map(([user]) => user.email),
        users.map(([user]) => user.name),
        users.map(([, at]) => at),
      ],
    });
  }
  if (organizations.length > 0) {
    await sql.query({
      name: 'projector_identity_insert_organizations',
      text: insertOrganizations,
      values: [
        organizations.map(([org]) => org.orgId),
        organizations.map(([org]) => org.name),
        organizations.map(([org]) => org.slug),
        organizations.map(([org]) => org.personal),
        organizations.map(([org]) => org.createdBy),
        organizations.map(([, recorded]) => recorded.metadata.occurredAt),
        organizations.map(([, recorded]) => recorded.revision.toString()),
      ],
    });
  }
}
