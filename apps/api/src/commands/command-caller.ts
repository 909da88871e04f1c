import type { Request } from 'express';
import {
  anonymous,
  foldOrganization,
  organizationStreamId,
  roleIn,
  weakerRole,
  type Caller,
  type OrganizationEvent,
  type OrganizationState,
  type Role,
} from '@portal/domain';
import { callerOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';

/**
 * The member's role as the organization's own events have it, capped by the credential (an API key
 * never acts above its role). `null` once they left or were removed, whatever their credential says.
 */
export function currentRole(organization: OrganizationState, userId: string, cap: Role | null): Role | null {
  const role = roleIn(organization, userId);
  return role === null || cap === null ? role : weakerRole(role, cap);
}

/**
 * Who a command acts as. The authentication middleware found the user and their active organization;
 * the role is read again from the organization's stream, the same truth the organization's commands
 * decide on, so a demotion or a removal applies to the very next command: every check uses the member's
 * current role (docs/identity.md).
 */
export async function commandCaller(
  deps: Pick<ApiDependencies, 'eventStore'>,
  req: Request,
): Promise<Caller> {
  const caller = callerOf(req);
  if (caller.userId === null) return anonymous;
  if (caller.orgId === null) return { userId: caller.userId, orgId: null, role: null };
  const events = await deps.eventStore.readStream(organizationStreamId(caller.orgId));
  const organization = foldOrganization(events as unknown as readonly OrganizationEvent[]);
  return {
    userId: caller.userId,
    orgId: caller.orgId,
    role: currentRole(organization, caller.userId, caller.roleCap),
  };
}
