import { randomUUID } from 'node:crypto';
import type { Role } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { randomToken, sha256Hex } from './secrets.js';

export interface SessionRecord {
  readonly publicId: string;
  readonly userId: string;
  readonly activeOrgId: string;
  readonly csrfToken: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** A new session and the secret for its cookie, which exists only in this answer and the browser. */
export interface NewSession extends SessionRecord {
  readonly token: string;
}

/** A live session with who it belongs to and their current role in the organization asked about. */
export interface SessionWithUser extends SessionRecord {
  readonly email: string;
  readonly name: string | null;
  /** `null` when the user is not (or no longer) a member of that organization. */
  readonly role: Role | null;
}

interface SessionRow {
  public_id: string;
  user_id: string;
  active_org_id: string;
  csrf_token: string;
  created_at: Date;
  expires_at: Date;
  email: string;
  name: string | null;
  role: Role | null;
}

/**
 * One query per request: the live session, its user's email and name, and the user's role in the
 * organization `$2` (or the session's active one). The role is the read model's current one, so a
 * demotion or a removal applies to the next request; a disabled user's sessions are not found at all.
 */
const sessionQuery = (where: string) => `
  SELECT s.public_id, s.user_id, s.active_org_id, s.csrf_token, s.created_at, s.expires_at,
         c.email, u.name, m.role
    FROM auth.sessions s
    JOIN auth.credentials c ON c.user_id = s.user_id
    LEFT JOIN read.users u ON u.id = s.user_id
    LEFT JOIN read.org_members m ON m.org_id = COALESCE($2::uuid, s.active_org_id) AND m.user_id = s.user_id
   WHERE ${where} AND s.revoked_at IS NULL AND s.expires_at > now() AND c.disabled_at IS NULL`;

const toSession = (row: SessionRow): SessionWithUser => ({
  publicId: row.public_id,
  userId: row.user_id,
  activeOrgId: row.active_org_id,
  csrfToken: row.csrf_token,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  email: row.email,
  name: row.name,
  role: row.role,
});

export async function createSession(
  pool: Pool,
  input: {
    readonly userId: string;
    readonly activeOrgId: string;
    readonly ttlSeconds: number;
    readonly now: Date;
  },
): Promise<NewSession> {
  const token = randomToken();
  const session: NewSession = {
    token,
    publicId: randomUUID(),
    userId: input.userId,
    activeOrgId: input.activeOrgId,
    csrfToken: randomToken(),
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + input.ttlSeconds * 1000),
  };
  await pool.query(
    `INSERT INTO auth.sessions (id_digest, public_id, user_id, active_org_id, csrf_token, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      sha256Hex(token),
      session.publicId,
      session.userId,
      session.activeOrgId,
      session.csrfToken,
      session.createdAt,
      session.expiresAt,
    ],
  );
  return session;
}

/** The live session a cookie holds the secret of, with the role in its active organization. */
export async function findSessionByToken(pool: Pool, token: string): Promise<SessionWithUser | null> {
  const result = await pool.query<SessionRow>(sessionQuery('s.id_digest = $1'), [sha256Hex(token), null]);
  const row = result.rows[0];
  return row ? toSession(row) : null;
}

/** The live session a JWT names, if it is the user's, with the role in the JWT's organization. */
export async function findSessionForToken(
  pool: Pool,
  claims: { readonly sid: string; readonly sub: string; readonly org: string },
): Promise<SessionWithUser | null> {
  const result = await pool.query<SessionRow>(sessionQuery('s.public_id = $1 AND s.user_id = $3'), [
    claims.sid,
    claims.org,
    claims.sub,
  ]);
  const row = result.rows[0];
  return row ? toSession(row) : null;
}

export async function revokeSession(pool: Pool, publicId: string): Promise<void> {
  await pool.query(
    'UPDATE auth.sessions SET revoked_at = now() WHERE public_id = $1 AND revoked_at IS NULL',
    [publicId],
  );
}

export async function setActiveOrganization(pool: Pool, publicId: string, orgId: string): Promise<void> {
  await pool.query('UPDATE auth.sessions SET active_org_id = $2 WHERE public_id = $1', [publicId, orgId]);
}

/** Sessions past their end are useless; about one sign-in in this many deletes them. */
const PURGE_EVERY = 100;

export function purgeExpiredSessionsNowAndThen(pool: Pool, onError: (error: unknown) => void): void {
  if (Math.random() >= 1 / PURGE_EVERY) return;
  pool.query(`DELETE FROM auth.sessions WHERE expires_at < now() - interval '1 day'`).catch(onError);
}
