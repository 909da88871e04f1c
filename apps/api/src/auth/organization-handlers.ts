import type { Request, Response } from 'express';
import {
  createOrganizationBodySchema,
  hasPermissionBodySchema,
  setActiveOrganizationBodySchema,
  type OrganizationMembership,
} from '@portal/contracts';
import { DomainError, roleHasPermissions } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { respondToCommand } from '../commands/respond.js';
import { parseInput } from '../http/validate.js';
import { callerOf, setCaller } from './caller.js';
import { requireCredential } from './caller-rules.js';
import { membershipIn, membershipsOf } from '@portal/read-model-identity';
import { commandContextOf } from '../commands/command-context.js';
import { metadataOf } from '../commands/metadata.js';
import { recordNewOrganization } from './record-organization.js';
import { setActiveOrganization } from './session-store.js';
import { sessionViewOf } from './session-view.js';
import { sessionOf, setSession } from './session-context.js';

/**
 * `POST /api/auth/organization/create`: the caller becomes its owner. The slug is reserved first (given,
 * or derived from the name) and released if OrganizationCreated cannot be appended.
 */
export async function createOrganization(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const caller = requireCredential(callerOf(req), ['session', 'jwt'], 'create an organization');
  const body = parseInput(createOrganizationBodySchema, req.body, 'organization');
  const orgId = deps.newId();
  const at = deps.now();
  const recorded = await recordNewOrganization(
    { handling: commandContextOf(deps), pool: deps.pool },
    {
      orgId,
      name: body.name,
      wanted: body.slug === undefined ? { name: body.name } : { slug: body.slug },
      personal: false,
      ownerId: caller.userId,
      metadata: metadataOf(req, at, { userId: caller.userId, orgId }),
    },
  );
  if (recorded === null) {
    throw new DomainError('ALREADY_EXISTS', `the slug ${body.slug ?? body.name} is taken; choose another`);
  }
  const { slug } = recorded;
  const organization: OrganizationMembership = {
    id: orgId,
    name: body.name,
    slug,
    personal: false,
    role: 'owner',
    createdAt: at.toISOString(),
    joinedAt: at.toISOString(),
  };
  await respondToCommand(
    deps,
    req,
    res,
    { position: recorded.position, revision: null },
    { status: 201, body: organization },
  );
}

/** `GET /api/auth/organization/list`: the caller's organizations; an API key sees its own only. */
export async function listOrganizations(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const caller = requireCredential(callerOf(req), ['session', 'jwt', 'api-key'], 'list organizations');
  const memberships = await membershipsOf(deps.pool, caller.userId);
  const items =
    caller.credential === 'api-key'
      ? memberships.filter((membership) => membership.id === caller.orgId)
      : memberships;
  res.json({ items, activeOrganizationId: caller.orgId });
}

/** `POST /api/auth/organization/set-active`: the session acts in another of the user's organizations. */
export async function setActive(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const caller = requireCredential(callerOf(req), ['session'], 'change the active organization');
  const { organizationId } = parseInput(setActiveOrganizationBodySchema, req.body, 'set-active');
  const membership = await membershipIn(deps.pool, caller.userId, organizationId);
  const session = sessionOf(req);
  if (!membership || !session || caller.sessionId === null) {
    throw new DomainError('NOT_FOUND', 'organization not found');
  }
  await setActiveOrganization(deps.pool, caller.sessionId, organizationId);
  // The answer already speaks for the new organization, as the next request will.
  setSession(req, { ...session, activeOrgId: organizationId, role: membership.role });
  setCaller(req, { ...caller, orgId: organizationId, role: membership.role });
  res.json(await sessionViewOf(deps.pool, req));
}

/** `POST /api/auth/organization/has-permission`: whether the active role allows every action named. */
export function hasPermission(_deps: ApiDependencies, req: Request, res: Response): void {
  const { permission } = parseInput(hasPermissionBodySchema, req.body, 'permission check');
  res.json({ success: roleHasPermissions(callerOf(req).role, permission) });
}
