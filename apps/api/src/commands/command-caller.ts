import type { Request } from 'express';
import { anonymous, organizationDecider, organizationStreamId, type Caller } from '@portal/domain';
import { currentRole, loadStream } from '@portal/commands';
import { callerOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';

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
  const organization = await loadStream(
    deps.eventStore,
    organizationStreamId(caller.orgId),
    organizationDecider,
  );
  return {
    userId: caller.userId,
    orgId: caller.orgId,
    role: currentRole(organization.state, caller.userId, caller.roleCap),
  };
}
