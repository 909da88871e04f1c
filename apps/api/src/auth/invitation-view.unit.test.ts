import { describe, expect, it } from 'vitest';
import type { InvitationRow } from '@portal/read-model-identity';
import { invitationView } from './invitation-view.js';

const now = new Date('2025-06-01T12:00:00.000Z');
const row: InvitationRow = {
  id: '0b0f4f8e-3c2a-4e53-9a4a-6f1f5c1d2e3f',
  org_id: '1b0f4f8e-3c2a-4e53-9a4a-6f1f5c1d2e3f',
  email: 'x@example.org',
  role: 'admin',
  invited_by: '2b0f4f8e-3c2a-4e53-9a4a-6f1f5c1d2e3f',
  created_at: new Date('2025-05-30T12:00:00.000Z'),
  expires_at: new Date('2025-06-06T12:00:00.000Z'),
  accepted_at: null,
  accepted_by: null,
  cancelled_at: null,
  cancel_reason: null,
  inviter_role: 'admin',
};

const statusOf = (changes: Partial<InvitationRow>) => {
  const view = invitationView({ ...row, ...changes }, now);
  return [view.status, view.cancelReason];
};

describe('invitation status', () => {
  it('is pending while open, unexpired and its sender may still send it', () => {
    expect(statusOf({})).toEqual(['pending', null]);
  });

  it('is accepted once accepted, whatever came after', () => {
    expect(statusOf({ accepted_at: now, expires_at: new Date(0), inviter_role: null })).toEqual([
      'accepted',
      null,
    ]);
  });

  it('is cancelled, with the reason, when cancelled before its expiry', () => {
    const cancelled = {
      cancelled_at: new Date('2025-05-31T00:00:00.000Z'),
      cancel_reason: 'inviter-demoted' as const,
    };
    expect(statusOf(cancelled)).toEqual(['cancelled', 'inviter-demoted']);
    expect(statusOf({ ...cancelled, expires_at: now })).toEqual(['cancelled', 'inviter-demoted']);
  });

  it('is expired from its expiry on, also when cancelled after it had expired', () => {
    expect(statusOf({ expires_at: now })).toEqual(['expired', null]);
    expect(
      statusOf({
        expires_at: new Date('2025-05-31T00:00:00.000Z'),
        cancelled_at: new Date('2025-05-31T06:00:00.000Z'),
        cancel_reason: 'inviter-removed',
      }),
    ).toEqual(['expired', null]);
  });

  it("ends with its sender's right to send it when no cancellation was recorded", () => {
    expect(statusOf({ inviter_role: null })).toEqual(['cancelled', 'inviter-removed']);
    expect(statusOf({ inviter_role: 'editor' })).toEqual(['cancelled', 'inviter-demoted']);
    expect(statusOf({ role: 'owner', inviter_role: 'admin' })).toEqual(['cancelled', 'inviter-demoted']);
    expect(statusOf({ role: 'owner', inviter_role: 'owner' })).toEqual(['pending', null]);
  });
});
