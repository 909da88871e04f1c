import { randomUUID } from 'node:crypto';
import type { OrganizationEvent, RecordedEvent, UserDisabled, UserRegistered } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { metadata, RecordedEventLog } from '../../support/portal-events.js';
import { useReadSchemas } from '../../support/read-schemas.js';

const db = useReadSchemas('identity');
const log = new RecordedEventLog();

function userRegistered(userId: string, email: string): RecordedEvent {
  const event: UserRegistered = { type: 'UserRegistered', data: { userId, email, name: 'Ada' } };
  return log.record(event, `user-${userId}`, metadata({ occurredAt: '2025-03-01T00:00:00.000Z' }));
}

function orgEvent(event: OrganizationEvent, at = '2025-03-01T00:00:00.000Z'): RecordedEvent {
  return log.record(event, `org-${event.data.orgId}`, metadata({ occurredAt: at }));
}

function createdOrganization(orgId: string, ownerId: string): RecordedEvent[] {
  return [
    orgEvent({
      type: 'OrganizationCreated',
      data: { orgId, name: 'Field team', slug: 'field-team', personal: false, createdBy: ownerId },
    }),
    orgEvent({ type: 'MemberAdded', data: { orgId, userId: ownerId, role: 'owner', invitationId: null } }),
  ];
}

async function members(orgId: string, schema = db.schema) {
  const result = await db.pool.query<{ user_id: string; role: string }>(
    `SELECT user_id, role FROM "${schema}".org_members WHERE org_id = $1 ORDER BY role, user_id`,
    [orgId],
  );
  return result.rows;
}

async function tableDump(schema: string, orgId: string) {
  const organizations = await db.pool.query(`SELECT * FROM "${schema}".organizations WHERE id = $1`, [orgId]);
  const invitations = await db.pool.query(
    `SELECT id, email, role, accepted_by, accepted_at FROM "${schema}".org_invitations WHERE org_id = $1`,
    [orgId],
  );
  return {
    organizations: organizations.rows,
    members: await members(orgId, schema),
    invitations: invitations.rows,
  };
}

describe('identity read model', () => {
  it('projects a user, an organization and its owner', async () => {
    const userId = randomUUID();
    const orgId = randomUUID();
    await db.apply([userRegistered(userId, 'Ada@Example.org'), ...createdOrganization(orgId, userId)]);

    const user = await db.pool.query(`SELECT * FROM "${db.schema}".users WHERE id = $1`, [userId]);
    expect(user.rows[0]).toMatchObject({ email: 'Ada@Example.org', name: 'Ada' });
    const org = await db.pool.query(`SELECT * FROM "${db.schema}".organizations WHERE id = $1`, [orgId]);
    expect(org.rows[0]).toMatchObject({
      name: 'Field team',
      slug: 'field-team',
      personal: false,
      created_by: userId,
      version: '1',
    });
    expect(await members(orgId)).toEqual([{ user_id: userId, role: 'owner' }]);
  });

  it('marks a disabled user once, keeping the first time, also when applied again', async () => {
    const userId = randomUUID();
    const disabled = (at: string): RecordedEvent => {
      const event: UserDisabled = { type: 'UserDisabled', data: { userId, reason: 'left' } };
      return log.record(event, `user-${userId}`, metadata({ occurredAt: at }));
    };
    const first = disabled('2025-03-02T00:00:00.000Z');
    await db.apply([userRegistered(userId, 'gone@example.org'), first]);
    await db.apply([first, disabled('2025-03-03T00:00:00.000Z')]);
    const user = await db.pool.query<{ disabled_at: Date | null }>(
      `SELECT disabled_at FROM "${db.schema}".users WHERE id = $1`,
      [userId],
    );
    expect(user.rows[0]?.disabled_at?.toISOString()).toBe('2025-03-02T00:00:00.000Z');
  });

  it('follows an invitation, its acceptance, a role change and a removal', async () => {
    const ownerId = randomUUID();
    const inviteeId = randomUUID();
    const orgId = randomUUID();
    const invitationId = randomUUID();
    const events = [
      ...createdOrganization(orgId, ownerId),
      orgEvent({
        type: 'MemberInvited',
        data: {
          orgId,
          invitationId,
          email: 'bob@example.org',
          role: 'editor',
          invitedBy: ownerId,
          expiresAt: '2025-03-08T00:00:00.000Z',
        },
      }),
      orgEvent(
        { type: 'MemberAdded', data: { orgId, userId: inviteeId, role: 'editor', invitationId } },
        '2025-03-02T00:00:00.000Z',
      ),
    ];
    await db.apply(events);
    const invitation = await db.pool.query(
      `SELECT accepted_by, accepted_at FROM "${db.schema}".org_invitations WHERE id = $1`,
      [invitationId],
    );
    expect(invitation.rows[0]).toEqual({
      accepted_by: inviteeId,
      accepted_at: new Date('2025-03-02T00:00:00.000Z'),
    });
    expect(await members(orgId)).toContainEqual({ user_id: inviteeId, role: 'editor' });

    const changed = orgEvent({
      type: 'MemberRoleChanged',
      data: { orgId, userId: inviteeId, from: 'editor', to: 'admin' },
    });
    await db.apply([changed]);
    expect(await members(orgId)).toContainEqual({ user_id: inviteeId, role: 'admin' });

    const removed = orgEvent({ type: 'MemberRemoved', data: { orgId, userId: inviteeId, role: 'admin' } });
    await db.apply([removed]);
    expect(await members(orgId)).toEqual([{ user_id: ownerId, role: 'owner' }]);

    // Applying everything again, or an old event late, changes nothing: the removal stays.
    await db.apply([...events, changed, removed]);
    await db.apply([changed]);
    expect(await members(orgId)).toEqual([{ user_id: ownerId, role: 'owner' }]);

    // A rebuild replaying the same events from zero lands on the same rows.
    await db.apply([...events, changed, removed], db.replica);
    expect(await tableDump(db.replica, orgId)).toEqual(await tableDump(db.schema, orgId));
  });

  it('moves the version on API key events without touching members', async () => {
    const ownerId = randomUUID();
    const orgId = randomUUID();
    const keyId = randomUUID();
    await db.apply([
      ...createdOrganization(orgId, ownerId),
      orgEvent({
        type: 'ApiKeyCreated',
        data: {
          orgId,
          keyId,
          name: 'pipeline',
          role: 'editor',
          createdBy: ownerId,
          prefix: 'pcs_abcdefgh',
          expiresAt: null,
        },
      }),
      orgEvent({ type: 'ApiKeyRevoked', data: { orgId, keyId } }),
    ]);
    const org = await db.pool.query<{ version: string }>(
      `SELECT version FROM "${db.schema}".organizations WHERE id = $1`,
      [orgId],
    );
    expect(org.rows[0]?.version).toBe('3');
    expect(await members(orgId)).toEqual([{ user_id: ownerId, role: 'owner' }]);
  });

  it('records when and why an invitation was cancelled, once', async () => {
    const ownerId = randomUUID();
    const orgId = randomUUID();
    const invitationId = randomUUID();
    const events = [
      ...createdOrganization(orgId, ownerId),
      orgEvent({
        type: 'MemberInvited',
        data: {
          orgId,
          invitationId,
          email: 'x@example.org',
          role: 'admin',
          invitedBy: ownerId,
          expiresAt: '2025-03-08T00:00:00.000Z',
        },
      }),
      orgEvent(
        { type: 'InvitationCancelled', data: { orgId, invitationId, reason: 'inviter-removed' } },
        '2025-03-02T00:00:00.000Z',
      ),
    ];
    await db.apply(events);
    await db.apply(events);
    const row = await db.pool.query(
      `SELECT cancelled_at, cancel_reason, accepted_at FROM "${db.schema}".org_invitations WHERE id = $1`,
      [invitationId],
    );
    expect(row.rows).toEqual([
      {
        cancelled_at: new Date('2025-03-02T00:00:00.000Z'),
        cancel_reason: 'inviter-removed',
        accepted_at: null,
      },
    ]);
  });
});
