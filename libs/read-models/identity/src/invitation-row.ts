import type { InvitationView } from '@portal/contracts';
import type { Role } from '@portal/domain';

/** A row of `read.org_invitations` with its sender's current role in the organization (null: gone). */
export interface InvitationRow {
  readonly id: string;
  readonly org_id: string;
  readonly email: string;
  readonly role: Role;
  readonly invited_by: string;
  readonly created_at: Date;
  readonly expires_at: Date;
  readonly accepted_at: Date | null;
  readonly accepted_by: string | null;
  readonly cancelled_at: Date | null;
  readonly cancel_reason: InvitationView['cancelReason'];
  readonly inviter_role: Role | null;
}
