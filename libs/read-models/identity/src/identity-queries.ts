import type { OrganizationMembership, Member } from '@portal/contracts';
import { isUuid, type Role } from '@portal/domain';
import type { Pool } from '@portal/platform';
import type { InvitationRow } from './invitation-row.js';

/** Reads of the identity read model (`read.users`, `organizations`, `org_members`, `org_invitations`). */

interface MembershipRow {
  id: string;
  name: string;
  slug: string;
  personal: boolean;
  role: Role;
  created_at: Date;
  joined_at: Date;
}

const membershipColumns = `o.id, o.name, o.slug, o.personal, m.role, o.created_at, m.joined_at`;

const toMembership = (row: MembershipRow): OrganizationMembership => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  personal: row.personal,
  role: row.role,
  createdAt: row.created_at.toISOString(),
  joinedAt: row.joined_at.toISOString(),
});

/** The user's organizations, the personal one first. */
export async function membershipsOf(pool: Pool, userId: string): Promise<OrganizationMembership[]> {
  const result = await pool.query<MembershipRow>(
    `SELECT ${membershipColumns} FROM read.org_members m JOIN read.organizations o ON o.id = m.org_id
      WHERE m.user_id = $1 ORDER BY o.personal DESC, o.name, o.id`,
    [userId],
  );
  return result.rows.map(toMembership);
}

export async function membershipIn(
  pool: Pool,
  userId: string,
  orgId: string,
): Promise<OrganizationMembership | null> {
  const result = await pool.query<MembershipRow>(
    `SELECT ${membershipColumns} FROM read.org_members m JOIN read.organizations o ON o.id = m.org_id
      WHERE m.user_id = $1 AND m.org_id = $2`,
    [userId, orgId],
  );
  const row = result.rows[0];
  return row ? toMembership(row) : null;
}

interface MemberRow {
  user_id: string;
  email: string | null;
  name: string | null;
  role: Role;
  joined_at: Date;
}

const toMember = (row: MemberRow): Member => ({
  userId: row.user_id,
  email: row.email ?? '',
  name: row.name ?? '',
  role: row.role,
  joinedAt: row.joined_at.toISOString(),
});

const memberQuery = `
  SELECT m.user_id, u.email, u.name, m.role, m.joined_at
    FROM read.org_members m LEFT JOIN read.users u ON u.id = m.user_id
   WHERE m.org_id = $1`;

/** Owners first, then by role and name. */
export async function membersOf(pool: Pool, orgId: string): Promise<Member[]> {
  const result = await pool.query<MemberRow>(
    `${memberQuery} ORDER BY array_position(ARRAY['owner', 'admin', 'editor', 'viewer'], m.role), u.name, m.user_id`,
    [orgId],
  );
  return result.rows.map(toMember);
}

export async function memberOf(pool: Pool, orgId: string, userId: string): Promise<Member | null> {
  const result = await pool.query<MemberRow>(`${memberQuery} AND m.user_id = $2`, [orgId, userId]);
  const row = result.rows[0];
  return row ? toMember(row) : null;
}

export async function userCreatedAt(pool: Pool, userId: string): Promise<string | null> {
  const result = await pool.query<{ created_at: Date }>('SELECT created_at FROM read.users WHERE id = $1', [
    userId,
  ]);
  return result.rows[0]?.created_at.toISOString() ?? null;
}

/** The organization of an invitation to `email`; `null` for any other (nobody learns of others' invitations). */
export async function invitationOrganization(
  pool: Pool,
  invitationId: string,
  email: string,
): Promise<{ orgId: string; name: string; slug: string; personal: boolean; createdAt: Date } | null> {
  const result = await pool.query<{
    org_id: string;
    name: string;
    slug: string;
    personal: boolean;
    created_at: Date;
  }>(
    `SELECT i.org_id, o.name, o.slug, o.personal, o.created_at
       FROM read.org_invitations i JOIN read.organizations o ON o.id = i.org_id
      WHERE i.id = $1 AND i.email = lower($2)`,
    [invitationId, email],
  );
  const row = result.rows[0];
  return row
    ? { orgId: row.org_id, name: row.name, slug: row.slug, personal: row.personal, createdAt: row.created_at }
    : null;
}

const invitationQuery = `
  SELECT i.id, i.org_id, i.email, i.role, i.invited_by, i.created_at, i.expires_at, i.accepted_at,
         i.accepted_by, i.cancelled_at, i.cancel_reason, m.role AS inviter_role
    FROM read.org_invitations i
    LEFT JOIN read.org_members m ON m.org_id = i.org_id AND m.user_id = i.invited_by
   WHERE i.org_id = $1`;

/** The organization's invitations, newest first, each with its sender's current role. */
export async function invitationsOf(pool: Pool, orgId: string): Promise<InvitationRow[]> {
  const result = await pool.query<InvitationRow>(`${invitationQuery} ORDER BY i.created_at DESC, i.id`, [
    orgId,
  ]);
  return result.rows;
}

export async function invitationIn(
  pool: Pool,
  orgId: string,
  invitationId: string,
): Promise<InvitationRow | null> {
  const result = await pool.query<InvitationRow>(`${invitationQuery} AND i.id = $2`, [orgId, invitationId]);
  return result.rows[0] ?? null;
}

/** An invitation to the caller with what they need to know of it before they are a member. */
export interface UserInvitationRow extends InvitationRow {
  readonly org_name: string;
  readonly org_slug: string;
  readonly inviter_name: string | null;
}

/**
 * The invitations to `email` that nothing has ended yet (not accepted, cancelled or expired), newest
 * first, with their organization and sender, leaving out the organizations `userId` belongs to already
 * (an acceptance there is refused). Through `org_invitations_email`.
 */
export async function openInvitationsTo(
  pool: Pool,
  email: string,
  userId: string,
  now: Date,
): Promise<UserInvitationRow[]> {
  const result = await pool.query<UserInvitationRow>(
    `SELECT i.id, i.org_id, i.email, i.role, i.invited_by, i.created_at, i.expires_at, i.accepted_at,
            i.accepted_by, i.cancelled_at, i.cancel_reason, m.role AS inviter_role,
            o.name AS org_name, o.slug AS org_slug, u.name AS inviter_name
       FROM read.org_invitations i
       JOIN read.organizations o ON o.id = i.org_id
       LEFT JOIN read.org_members m ON m.org_id = i.org_id AND m.user_id = i.invited_by
       LEFT JOIN read.users u ON u.id = i.invited_by
      WHERE i.email = lower($1) AND i.accepted_at IS NULL AND i.cancelled_at IS NULL AND i.expires_at > $3
        AND NOT EXISTS (SELECT 1 FROM read.org_members mine WHERE mine.org_id = i.org_id AND mine.user_id = $2)
      ORDER BY i.created_at DESC, i.id`,
    [email, userId, now],
  );
  return result.rows;
}

/** A user's display name as it is today (`read.users`). */
export interface UserNameRow {
  readonly id: string;
  readonly name: string;
}

/**
 * Display names of the users among `ids`, as they are today, not as they were when an event happened.
 * Unknown ids (and anything not a UUID, which no user has) are left out.
 */
export async function userNames(pool: Pool, ids: readonly string[]): Promise<ReadonlyMap<string, string>> {
  const unique = [...new Set(ids)].filter(isUuid);
  if (unique.length === 0) return new Map();
  const result = await pool.query<UserNameRow>('SELECT id, name FROM read.users WHERE id = ANY($1::uuid[])', [
    unique,
  ]);
  return new Map(result.rows.map((row) => [row.id, row.name]));
}
