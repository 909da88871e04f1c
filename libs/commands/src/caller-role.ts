import { roleIn, weakerRole, type OrganizationState, type Role } from '@portal/domain';

/**
 * The member's role as the organization's own events have it, capped by the credential (an API key
 * never acts above its role). `null` once they left or were removed, whatever their credential says.
 */
export function currentRole(organization: OrganizationState, userId: string, cap: Role | null): Role | null {
  const role = roleIn(organization, userId);
  return role === null || cap === null ? role : weakerRole(role, cap);
}
