import type { Role } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { randomToken, sha256Hex } from './secrets.js';

export const API_KEY_PREFIX = 'pcs_';
/** `pcs_` and the first 8 characters of the secret: enough to tell keys apart, useless to guess with. */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export function newApiKey(): { readonly key: string; readonly prefix: string; readonly digest: string } {
  const key = `${API_KEY_PREFIX}${randomToken()}`;
  return { key, prefix: key.slice(0, SHOWN_PREFIX_LENGTH), digest: sha256Hex(key) };
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly orgId: string;
  readonly createdBy: string;
  readonly name: string;
  readonly role: Role;
  readonly prefix: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
}

interface ApiKeyRow {
  id: string;
  org_id: string;
  created_by: string;
  name: string;
  role: Role;
  prefix: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const columns = 'id, org_id, created_by, name, role, prefix, created_at, expires_at, revoked_at';

const toRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  orgId: row.org_id,
  createdBy: row.created_by,
  name: row.name,
  role: row.role,
  prefix: row.prefix,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
});

export async function insertApiKey(
  pool: Pool,
  key: Omit<ApiKeyRecord, 'revokedAt'> & { readonly digest: string },
): Promise<void> {
  await pool.query(
    `INSERT INTO auth.api_keys (id, digest, org_id, created_by, name, role, prefix, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      key.id,
      key.digest,
      key.orgId,
      key.createdBy,
      key.name,
      key.role,
      key.prefix,
      key.createdAt,
      key.expiresAt,
    ],
  );
}

export async function deleteApiKey(pool: Pool, keyId: string): Promise<void> {
  await pool.query('DELETE FROM auth.api_keys WHERE id = $1', [keyId]);
}

export async function listApiKeys(pool: Pool, orgId: string): Promise<ApiKeyRecord[]> {
  const result = await pool.query<ApiKeyRow>(
    `SELECT ${columns} FROM auth.api_keys WHERE org_id = $1 ORDER BY created_at DESC, id`,
    [orgId],
  );
  return result.rows.map(toRecord);
}

export async function findApiKeyInOrganization(
  pool: Pool,
  keyId: string,
  orgId: string,
): Promise<ApiKeyRecord | null> {
  const result = await pool.query<ApiKeyRow>(
    `SELECT ${columns} FROM auth.api_keys WHERE id = $1 AND org_id = $2`,
    [keyId, orgId],
  );
  const row = result.rows[0];
  return row ? toRecord(row) : null;
}

/** Revoked here first, so the key stops working even if recording ApiKeyRevoked fails afterwards. */
export async function revokeApiKeyRow(pool: Pool, keyId: string, at: Date): Promise<void> {
  await pool.query('UPDATE auth.api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [
    keyId,
    at,
  ]);
}

/** A usable key with its creator, and the creator's current role in the key's organization. */
export interface AuthenticatedApiKey {
  readonly id: string;
  readonly orgId: string;
  readonly keyRole: Role;
  readonly userId: string;
  readonly email: string;
  readonly name: string | null;
  /** `null` when the creator is no longer a member: the key is then disabled. */
  readonly creatorRole: Role | null;
  readonly expiresAt: Date | null;
}

/** `digest`: the key's `sha256Hex`, as stored. */
export async function findUsableApiKey(pool: Pool, digest: string): Promise<AuthenticatedApiKey | null> {
  const result = await pool.query<{
    id: string;
    org_id: string;
    role: Role;
    created_by: string;
    email: string;
    name: string | null;
    member_role: Role | null;
    expires_at: Date | null;
  }>(
    `SELECT k.id, k.org_id, k.role, k.created_by, c.email, u.name, m.role AS member_role, k.expires_at
       FROM auth.api_keys k
       JOIN auth.credentials c ON c.user_id = k.created_by
       LEFT JOIN read.users u ON u.id = k.created_by
       LEFT JOIN read.org_members m ON m.org_id = k.org_id AND m.user_id = k.created_by
      WHERE k.digest = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
        AND c.disabled_at IS NULL`,
    [digest],
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    orgId: row.org_id,
    keyRole: row.role,
    userId: row.created_by,
    email: row.email,
    name: row.name,
    creatorRole: row.member_role,
    expiresAt: row.expires_at,
  };
}
