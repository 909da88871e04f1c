import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { settleCommandAt, type CommandAnswer } from '../../../../test/support/command-answer.js';
import { useAuthDatabase } from '../../test/support/auth-database.js';
import { useTestApi } from '../../test/support/test-api.js';

/**
 * The identity commands through the real app on the real `auth` schema, the PostgreSQL event store and
 * the projector, all in the test file's own database: what the events say, and what is left behind
 * when an append fails.
 */
const db = useAuthDatabase('identity_events');
const api = useTestApi(db);
const { failing } = api;

/** The fields these tests read from sign-up, sign-in and create answers. */
interface AnswerBody {
  readonly user?: { readonly id: string };
  readonly session?: { readonly activeOrganizationId: string };
  readonly csrfToken?: string;
  readonly id?: string;
  readonly key?: string;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await api.post(path, body, headers);
  return { ...response, body: response.body as AnswerBody };
}

/** A command's success: `success`, or 202 (projected later than the API waits) and then projected. */
async function expectCommand(answer: CommandAnswer, success = 201): Promise<void> {
  await settleCommandAt(api.baseUrl, answer, success, 'command');
}

const password = 'a password nobody guesses';

describe('identity events', () => {
  it('records sign-up as the new user: their registration and their personal organization', async () => {
    const email = `ada-${randomUUID()}@example.org`;
    const response = await post('/api/auth/sign-up/email', { email, password, name: 'Ada' });
    await expectCommand(response);
    const userId = String(response.body.user?.id);
    const orgId = String(response.body.session?.activeOrganizationId);

    const userEvents = await api.store.readStream(`user-${userId}`);
    const orgEvents = await api.store.readStream(`org-${orgId}`);
    expect(userEvents.map((event) => event.type)).toEqual(['UserRegistered']);
    expect(orgEvents.map((event) => event.type)).toEqual(['OrganizationCreated', 'MemberAdded']);
    expect(orgEvents[0]?.data).toMatchObject({ orgId, name: 'Ada', personal: true, createdBy: userId });
    expect(orgEvents[1]?.data).toEqual({ orgId, userId, role: 'owner', invitationId: null });
    for (const event of [...userEvents, ...orgEvents]) {
      expect(event.metadata).toMatchObject({ actorId: userId, orgId });
      // Passwords, hashes, session ids and keys never enter an event.
      const text = JSON.stringify({ data: event.data, metadata: event.metadata });
      expect(text).not.toContain(password);
      expect(text).not.toContain('scrypt');
      expect(text).not.toContain(String(response.body.csrfToken));
    }
  });

  it('records organization commands with the signed-in actor', async () => {
    const signedUp = await post('/api/auth/sign-up/email', {
      email: `grace-${randomUUID()}@example.org`,
      password,
      name: 'Grace',
    });
    // Projected: the projector made Grace the owner of her personal organization.
    await expectCommand(signedUp);
    const cookie = (signedUp.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const headers = { cookie, 'x-csrf-token': String(signedUp.body.csrfToken) };
    const created = await post('/api/auth/organization/create', { name: 'Survey' }, headers);
    await expectCommand(created);
    const key = await post('/api/auth/api-key/create', { name: 'ci', role: 'viewer' }, headers);
    await expectCommand(key);

    const userId = String(signedUp.body.user?.id);
    const recorded = [
      ...(await api.store.readStream(`org-${String(created.body.id)}`)),
      ...(await api.store.readStream(`org-${String(signedUp.body.session?.activeOrganizationId)}`)),
    ];
    expect(recorded.map((event) => event.type)).toContain('ApiKeyCreated');
    for (const event of recorded) expect(event.metadata.actorId).toBe(userId);
    expect(JSON.stringify(recorded.map((event) => event.data))).not.toContain(String(key.body.key));
  });

  it('releases the email when the user could not be recorded, so signing up again works', async () => {
    const email = `retry-${randomUUID()}@example.org`;
    failing.add('user-');
    try {
      const failed = await post('/api/auth/sign-up/email', { email, password, name: 'Retry' });
      expect(failed.status).toBe(500);
    } finally {
      failing.delete('user-');
    }
    const rows = await db.pool.query('SELECT 1 FROM auth.credentials WHERE lower(email) = lower($1)', [
      email,
    ]);
    expect(rows.rowCount).toBe(0);
    await expectCommand(await post('/api/auth/sign-up/email', { email, password, name: 'Retry' }));
  });

  it('keeps the email of a user whose organization failed, and gives them it at sign-in', async () => {
    const email = `half-${randomUUID()}@example.org`;
    failing.add('org-');
    try {
      expect((await post('/api/auth/sign-up/email', { email, password, name: 'Half' })).status).toBe(500);
    } finally {
      failing.delete('org-');
    }
    expect((await post('/api/auth/sign-up/email', { email, password, name: 'Half' })).status).toBe(409);
    const signedIn = await post('/api/auth/sign-in/email', { email, password });
    expect(signedIn.status).toBe(200);
    const orgEvents = await api.store.readStream(
      `org-${String(signedIn.body.session?.activeOrganizationId)}`,
    );
    expect(orgEvents.map((event) => event.type)).toEqual(['OrganizationCreated', 'MemberAdded']);
  });
});
