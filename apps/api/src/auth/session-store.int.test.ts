import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useAuthDatabase } from '../../test/support/auth-database.js';
import {
  createSession,
  findSessionByToken,
  findSessionForToken,
  revokeSession,
  setActiveOrganization,
} from './session-store.js';

const db = useAuthDatabase('sessions');
const TTL = 3600;

describe('session store', () => {
  it('finds a live session by its cookie secret, with the current role in the active organization', async () => {
    const { userId, orgId, email } = await db.user();
    const session = await createSession(db.pool, {
      userId,
      activeOrgId: orgId,
      ttlSeconds: TTL,
      now: new Date(),
    });
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.csrfToken).not.toBe(session.token);

    const found = await findSessionByToken(db.pool, session.token);
    expect(found).toMatchObject({
      publicId: session.publicId,
      userId,
      activeOrgId: orgId,
      email,
      role: 'owner',
    });

    await db.setMember(orgId, userId, 'viewer');
    expect((await findSessionByToken(db.pool, session.token))?.role).toBe('viewer');
    await db.setMember(orgId, userId, null);
    const removed = await findSessionByToken(db.pool, session.token);
    expect(removed?.role).toBeNull();
  });

  it('keeps only a digest of the secret', async () => {
    const { userId, orgId } = await db.user();
    const session = await createSession(db.pool, {
      userId,
      activeOrgId: orgId,
      ttlSeconds: TTL,
      now: new Date(),
    });
    const rows = await db.pool.query('SELECT * FROM auth.sessions WHERE public_id = $1', [session.publicId]);
    expect(JSON.stringify(rows.rows)).not.toContain(session.token);
    expect(await findSessionByToken(db.pool, session.publicId)).toBeNull();
  });

  it('ends a session when it is revoked or expires', async () => {
    const { userId, orgId } = await db.user();
    const revoked = await createSession(db.pool, {
      userId,
      activeOrgId: orgId,
      ttlSeconds: TTL,
      now: new Date(),
    });
    await revokeSession(db.pool, revoked.publicId);
    expect(await findSessionByToken(db.pool, revoked.token)).toBeNull();

    const past = new Date(Date.now() - 2 * TTL * 1000);
    const expired = await createSession(db.pool, { userId, activeOrgId: orgId, ttlSeconds: TTL, now: past });
    expect(await findSessionByToken(db.pool, expired.token)).toBeNull();
  });

  it('answers a JWT for its own user only, with the role in the organization it names', async () => {
    const { userId, orgId } = await db.user();
    const other = await db.user();
    const teamId = randomUUID();
    await db.setMember(teamId, userId, 'editor');
    const session = await createSession(db.pool, {
      userId,
      activeOrgId: orgId,
      ttlSeconds: TTL,
      now: new Date(),
    });

    expect(
      await findSessionForToken(db.pool, { sid: session.publicId, sub: userId, org: teamId }),
    ).toMatchObject({
      role: 'editor',
      activeOrgId: orgId,
    });
    expect(
      await findSessionForToken(db.pool, { sid: session.publicId, sub: other.userId, org: orgId }),
    ).toBeNull();
    await revokeSession(db.pool, session.publicId);
    expect(await findSessionForToken(db.pool, { sid: session.publicId, sub: userId, org: orgId })).toBeNull();
  });

  it('moves the active organization', async () => {
    const { userId, orgId } = await db.user();
    const teamId = randomUUID();
    await db.setMember(teamId, userId, 'admin');
    const session = await createSession(db.pool, {
      userId,
      activeOrgId: orgId,
      ttlSeconds: TTL,
      now: new Date(),
    });
    await setActiveOrganization(db.pool, session.publicId, teamId);
    expect(await findSessionByToken(db.pool, session.token)).toMatchObject({
      activeOrgId: teamId,
      role: 'admin',
    });
  });
});
