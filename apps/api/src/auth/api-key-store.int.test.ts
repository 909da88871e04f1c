import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useAuthDatabase } from '../../test/support/auth-database.js';
import {
  findApiKeyInOrganization,
  findUsableApiKey,
  insertApiKey,
  listApiKeys,
  newApiKey,
  revokeApiKeyRow,
} from './api-key-store.js';
import { sha256Hex } from './secrets.js';

const db = useAuthDatabase('api_keys');

async function storedKey(
  creator: { userId: string; orgId: string },
  options: { role?: 'viewer' | 'editor' | 'admin'; expiresAt?: Date | null; createdAt?: Date } = {},
) {
  const { key, prefix, digest } = newApiKey();
  const id = randomUUID();
  await insertApiKey(db.pool, {
    id,
    digest,
    orgId: creator.orgId,
    createdBy: creator.userId,
    name: 'pipeline',
    role: options.role ?? 'editor',
    prefix,
    createdAt: options.createdAt ?? new Date(),
    expiresAt: options.expiresAt ?? null,
  });
  return { id, key, prefix };
}

describe('API key store', () => {
  it('makes keys `pcs_` and 256 random bits, and keeps only their digest', async () => {
    const creator = await db.user();
    const { id, key, prefix } = await storedKey(creator);
    expect(key).toMatch(/^pcs_[A-Za-z0-9_-]{43}$/);
    expect(prefix).toBe(key.slice(0, 12));
    const rows = await db.pool.query('SELECT * FROM auth.api_keys WHERE id = $1', [id]);
    expect(JSON.stringify(rows.rows)).not.toContain(key);
  });

  it("authenticates a key with its creator's current role", async () => {
    const creator = await db.user();
    const { id, key } = await storedKey(creator, { role: 'admin' });
    expect(await findUsableApiKey(db.pool, sha256Hex(key))).toEqual({
      id,
      orgId: creator.orgId,
      keyRole: 'admin',
      userId: creator.userId,
      email: creator.email,
      name: 'Test',
      creatorRole: 'owner',
      expiresAt: null,
    });
    await db.setMember(creator.orgId, creator.userId, 'viewer');
    expect((await findUsableApiKey(db.pool, sha256Hex(key)))?.creatorRole).toBe('viewer');
    await db.setMember(creator.orgId, creator.userId, null);
    expect((await findUsableApiKey(db.pool, sha256Hex(key)))?.creatorRole).toBeNull();
    expect(await findUsableApiKey(db.pool, sha256Hex(`${key}x`))).toBeNull();
  });

  it('refuses revoked and expired keys', async () => {
    const creator = await db.user();
    const revoked = await storedKey(creator);
    await revokeApiKeyRow(db.pool, revoked.id, new Date());
    expect(await findUsableApiKey(db.pool, sha256Hex(revoked.key))).toBeNull();
    expect((await findApiKeyInOrganization(db.pool, revoked.id, creator.orgId))?.revokedAt).toBeInstanceOf(
      Date,
    );

    const expired = await storedKey(creator, { expiresAt: new Date(Date.now() - 1000) });
    expect(await findUsableApiKey(db.pool, sha256Hex(expired.key))).toBeNull();
    const later = await storedKey(creator, { expiresAt: new Date(Date.now() + 60_000) });
    expect(await findUsableApiKey(db.pool, sha256Hex(later.key))).not.toBeNull();
  });

  it("lists an organization's keys newest first, and finds a key in its own organization only", async () => {
    const creator = await db.user();
    const older = await storedKey(creator, { createdAt: new Date('2025-01-01T00:00:00Z') });
    const newer = await storedKey(creator, { createdAt: new Date('2025-02-01T00:00:00Z') });
    expect((await listApiKeys(db.pool, creator.orgId)).map((key) => key.id)).toEqual([newer.id, older.id]);
    expect(await findApiKeyInOrganization(db.pool, older.id, randomUUID())).toBeNull();
  });
});
