import { randomUUID } from 'node:crypto';
import { EVENT_SCHEMA_VERSION, userStreamId } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { useAuthDatabase } from '../../test/support/auth-database.js';
import { usePostgresEventStore } from '../../test/support/event-store.js';
import { findCredentialsByEmail, releaseEmail, reserveEmail, type Credentials } from './credential-store.js';

const db = useAuthDatabase('credentials');
const events = usePostgresEventStore(db);

function credentials(email: string): Credentials {
  return { userId: randomUUID(), email, passwordHash: 'scrypt$…', personalOrgId: randomUUID() };
}

async function age(userId: string): Promise<void> {
  await db.pool.query(
    `UPDATE auth.credentials SET created_at = now() - interval '2 minutes' WHERE user_id = $1`,
    [userId],
  );
}

async function register(userId: string): Promise<void> {
  await events.store.append(
    userStreamId(userId),
    [
      {
        id: randomUUID(),
        type: 'UserRegistered',
        data: { userId, email: 'x', name: 'x' },
        metadata: {
          actorId: userId,
          orgId: null,
          correlationId: randomUUID(),
          causationId: null,
          requestId: null,
          occurredAt: new Date().toISOString(),
          schemaVersion: EVENT_SCHEMA_VERSION,
        },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
}

describe('credential store', () => {
  it('reserves an email once, whatever its case', async () => {
    const email = `Ada-${randomUUID()}@Example.org`;
    const first = credentials(email);
    expect(await reserveEmail(db.pool, events.store, first)).toBe(true);
    expect(await reserveEmail(db.pool, events.store, credentials(email.toLowerCase()))).toBe(false);
    expect(await findCredentialsByEmail(db.pool, email.toUpperCase())).toMatchObject({
      userId: first.userId,
      email,
    });
  });

  it('frees a released email', async () => {
    const email = `free-${randomUUID()}@example.org`;
    const first = credentials(email);
    await reserveEmail(db.pool, events.store, first);
    await releaseEmail(db.pool, first.userId);
    const second = credentials(email);
    expect(await reserveEmail(db.pool, events.store, second)).toBe(true);
    expect((await findCredentialsByEmail(db.pool, email))?.userId).toBe(second.userId);
  });

  it('takes over a reservation left by a sign-up that never wrote its user, but not a young one', async () => {
    const email = `left-${randomUUID()}@example.org`;
    const abandoned = credentials(email);
    await reserveEmail(db.pool, events.store, abandoned);
    // A reservation this young may belong to a sign-up still running.
    expect(await reserveEmail(db.pool, events.store, credentials(email))).toBe(false);
    await age(abandoned.userId);
    const next = credentials(email);
    expect(await reserveEmail(db.pool, events.store, next)).toBe(true);
    expect((await findCredentialsByEmail(db.pool, email))?.userId).toBe(next.userId);
  });

  it('never takes over the email of a user who exists', async () => {
    const email = `kept-${randomUUID()}@example.org`;
    const existing = credentials(email);
    await reserveEmail(db.pool, events.store, existing);
    await register(existing.userId);
    await age(existing.userId);
    expect(await reserveEmail(db.pool, events.store, credentials(email))).toBe(false);
  });
});
