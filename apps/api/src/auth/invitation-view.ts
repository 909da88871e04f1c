import type { InvitationView } from '@portal/contracts';
import { mayInviteAs } from '@portal/domain';
import type { InvitationRow } from '@portal/read-model-identity';

type Ending = Pick<InvitationView, 'status' | 'cancelledAt' | 'cancelReason'>;

/**
 * Whichever ended the invitation first: acceptance, a cancellation before the expiry, the expiry. An
 * invitation recorded before removals and demotions cancelled them ends with its sender's right to
 * invite at its role, as the decider refuses its acceptance then; it has no time of cancellation.
 */
function endingOf(row: InvitationRow, now: Date): Ending {
  if (row.accepted_at !== null) return { status: 'accepted', cancelledAt: null, cancelReason: null };
  if (row.cancelled_at !== null && row.cancelled_at < row.expires_at) {
    return {
      status: 'cancelled',
      cancelledAt: row.cancelled_at.toISOString(),
      cancelReason: row.cancel_reason,
    };
  }
  if (row.expires_at <= now || row.cancelled_at !== null) {
    return { status: 'expired', cancelledAt: null, cancelReason: null };
  }
  if (!mayInviteAs(row.inviter_role, row.role)) {
    const cancelReason = row.inviter_role === null ? 'inviter-removed' : 'inviter-demoted';
    return { status: 'cancelled', cancelledAt: null, cancelReason };
  }
  return { status: 'pending', cancelledAt: null, cancelReason: null };
}

export function invitationView(row: InvitationRow, now: Date): InvitationView {
  return {
    id: row.id,
    organizationId: row.org_id,
    email: row.email,
    role: row.role,
    invitedBy: row.invited_by,
    expiresAt: row.expires_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    acceptedAt: row.accepted_at?.toISOString() ?? null,
    acceptedBy: row.accepted_by,
    ...endingOf(row, now),
  };
}
