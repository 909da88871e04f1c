import type { Request, Response } from 'express';
import { removeMemberBodySchema, updateMemberRoleBodySchema } from '@portal/contracts';
import { requireRole } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { respondToCommand } from '../commands/respond.js';
import { parseInput } from '../http/validate.js';
import { callerOf } from './caller.js';
import {
  organizationActorOf,
  requireActiveOrganization,
  requireCredential,
  requireSignedIn,
} from './caller-rules.js';
import { memberOf, membersOf } from '@portal/read-model-identity';
import { runOrganizationCommand } from './organization-commands.js';

/**
 * Member management acts on the active organization. The role checked here is the one the authentication
 * found, for an early 403; the organization's decider checks it again against its stream, the truth,
 * capped by the credential (an API key's role), and alone decides who may touch owners.
 */
export function memberManager(req: Request, doing: string) {
  const caller = requireSignedIn(callerOf(req), doing);
  requireRole(caller, 'admin', doing);
  return { caller, orgId: requireActiveOrganization(caller).orgId };
}

/** `POST /api/auth/organization/update-member-role`: owners alone make, unmake or demote owners. */
export async function updateMemberRole(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { caller, orgId } = memberManager(req, 'change roles');
  const { userId, role } = parseInput(updateMemberRoleBodySchema, req.body, 'role change');
  const at = deps.now();
  const { outcome } = await runOrganizationCommand(
    deps,
    req,
    orgId,
    { type: 'ChangeMemberRole', data: { userId, role, actor: organizationActorOf(caller) } },
    { userId: caller.userId, at },
  );
  const member = await memberOf(deps.pool, orgId, userId);
  const body = member
    ? { ...member, role }
    : { userId, email: '', name: '', role, joinedAt: at.toISOString() };
  await respondToCommand(
    deps,
    req,
    res,
    { position: outcome.position, revision: null },
    { status: 200, body },
  );
}

/** `POST /api/auth/organization/remove-member`: admins remove others (owners only by owners); anyone may leave. */
export async function removeMember(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const signedIn = requireSignedIn(callerOf(req), 'remove members');
  const { userId } = parseInput(removeMemberBodySchema, req.body, 'member removal');
  // Leaving is a person's decision: an API key acts for its creator only within their role.
  const leaving = userId === signedIn.userId;
  const caller = leaving
    ? requireCredential(signedIn, ['session', 'jwt'], 'leave an organization')
    : memberManager(req, 'remove members').caller;
  const { orgId } = requireActiveOrganization(caller);
  const at = deps.now();
  const { outcome, events } = await runOrganizationCommand(
    deps,
    req,
    orgId,
    { type: 'RemoveMember', data: { userId, actor: organizationActorOf(caller) } },
    { userId: caller.userId, at },
  );
  const removed = events.find((event) => event.type === 'MemberRemoved');
  if (removed?.type !== 'MemberRemoved') throw new Error('a removal removes a member');
  await respondToCommand(
    deps,
    req,
    res,
    { position: outcome.position, revision: null },
    { status: 200, body: { organizationId: orgId, userId, role: removed.data.role } },
  );
}

/** `GET /api/auth/organization/list-members`: any member may see who else is. */
export async function listMembers(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const caller = requireSignedIn(callerOf(req), 'list members');
  requireRole(caller, 'viewer', 'list members');
  const { orgId } = requireActiveOrganization(caller);
  res.json({ organizationId: orgId, items: await membersOf(deps.pool, orgId) });
}
