import { userStreamId, type EventStore } from '@portal/domain';
import type { Pool } from '@portal/platform';

/**
 * A reservation older than this whose stream does not exist was left by a sign-up that died between
 * reserving and appending; a younger one may belong to a sign-up still running.
 */
export const LEFTOVER_AFTER_SECONDS = 60;

export interface Credentials {
  readonly userId: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly personalOrgId: string;
}

/** An account as sign-in and the admin console find it. */
export interface StoredCredentials extends Credentials {
  /** When the operator disabled it (UserDisabled); `null` for an account in use. */
  readonly disabledAt: Date | null;
}

interface CredentialRow {
  user_id: string;
  email: string;
  password_hash: string;
  personal_org_id: string;
  disabled_at: Date | null;
}

const toCredentials = (row: CredentialRow): StoredCredentials => ({
  userId: row.user_id,
  email: row.email,
  passwordHash: row.password_hash,
  personalOrgId: row.personal_org_id,
  disabledAt: row.disabled_at,
});

export async function findCredentialsByEmail(pool: Pool, email: string): Promise<StoredCredentials | null> {
  const result = await pool.query<CredentialRow>(
    `SELECT user_id, email, password_hash, personal_org_id, disabled_at
       FROM auth.credentials WHERE lower(email) = lower($1)`,
    [email],
  );
  const row = result.rows[0];
  return row ? toCredentials(row) : null;
}

/**
 * Claims the email for a new account before any event is written, so two sign-ups with one email cannot
 * both succeed. `false` when an account has it (or a sign-up is claiming it right now).
 */
export async function reserveEmail(
  pool: Pool,
  store: EventStore,
  credentials: Credentials,
): Promise<boolean> {
  const { userId, email, passwordHash, personalOrgId } = credentials;
  const inserted = await pool.query(
    `INSERT INTO auth.credentials (user_id, email, password_hash, personal_org_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT ((lower(email))) DO NOTHING`,
    [userId, email, passwordHash, personalOrgId],
  );
  if (inserted.rowCount === 1) return true;
  const leftover = await pool.query<{ user_id: string }>(
    `SELECT user_id FROM auth.credentials
      WHERE lower(email) = lower($1) AND created_at < now() - make_interval(secs => ${LEFTOVER_AFTER_SECONDS})`,
    [email],
  );
  const previous = leftover.rows[0]?.user_id;
  if (previous === undefined) return false;
  if ((await store.readStream(userStreamId(previous))).length > 0) return false;
  // Compare-and-set on the old owner: of two sign-ups reclaiming at once, one wins.
  const taken = await pool.query(
    `UPDATE auth.credentials
        SET user_id = $2, email = $3, password_hash = $4, personal_org_id = $5, created_at = now()
      WHERE user_id = $1`,
    [previous, userId, email, passwordHash, personalOrgId],
  );
  return taken.rowCount === 1;
}

export async function releaseEmail(pool: Pool, userId: string): Promise<void> {
  await pool.query('DELETE FROM auth.credentials WHERE user_id = $1', [userId]);
}
