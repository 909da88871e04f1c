import type { Request, Response } from 'express';
import {
  acceptInvitationBodySchema,
  cancelInvitationBodySchema,
  invitationListQuerySchema,
  inviteMemberBodySchema,
  type Invitation,
  type InvitationView,
  type OrganizationMembership,
  type UserInvitationList,
} from '@portal/contracts';
import { DomainError } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { respondToCommand } from '../commands/respond.js';
import { parseInput } from '../http/validate.js';
import { callerOf } from './caller.js';
import { organizationActorOf, requireCredential } from './caller-rules.js';
import {
  invitationIn,
  invitationOrganization,
  invitationsOf,
  openInvitationsTo,
} from '@portal/read-model-identity';
import { invitationView } from './invitation-view.js';
import { memberManager } from './member-handlers.js';
import { runOrganizationCommand } from './organization-commands.js';

/** An invitation is good for a week. */
const INVITATION_TTL_MS = 7 * 86_400_000;

/** `POST /api/auth/organization/invite-member`. */
export async function inviteMember(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { caller, orgId } = memberManager(req, 'invite members');
  const { email, role } = parseInput(inviteMemberBodySchema, req.body, 'invitation');
  const at = deps.now();
  const invitationId = deps.newId();
  const expiresAt = new Date(at.getTime() + INVITATION_TTL_MS).toISOString();
  const { outcome } = await runOrganizationCommand(
    deps,
    req,
    orgId,
    {
      type: 'InviteMember',
      data: { invitationId, email, role, expiresAt, actor: organizationActorOf(caller) },
    },
    { userId: caller.userId, at },
  );
  const invitation: Invitation = {
    id: invitationId,
    organizationId: orgId,
    email: email.toLowerCase(),
    role,
    invitedBy: caller.userId,
    expiresAt,
  };
  await respondToCommand(
    deps,
    req,
    res,
    { position: outcome.position, revision: null },
    { status: 201, body: invitation },
  );
}

/** `POST /api/auth/organization/accept-invitation`: the signed-in email must be the invited one. */
export async function acceptInvitation(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const caller = requireCredential(callerOf(req), ['session', 'jwt'], 'accept an invitation');
  const { invitationId } = parseInput(acceptInvitationBodySchema, req.body, 'invitation');
  const organization = await invitationOrganization(deps.pool, invitationId, caller.email);
  if (!organization) throw new DomainError('NOT_FOUND', 'invitation not found');
  const at = deps.now();
  const { outcome, events } = await runOrganizationCommand(
    deps,
    req,
    organization.orgId,
    {
      type: 'AcceptInvitation',
      data: { invitationId, now: at.toISOString(), actor: organizationActorOf(caller) },
    },
    { userId: caller.userId, at },
  );
  const added = events.find((event) => event.type === 'MemberAdded');
  if (added?.type !== 'MemberAdded') throw new Error('an accepted invitation adds a member');
  const membership: OrganizationMembership = {
    id: organization.orgId,
    name: organization.name,
    slug: organization.slug,
    personal: organization.personal,
    role: added.data.role,
    createdAt: organization.createdAt.toISOString(),
    joinedAt: at.toISOString(),
  };
  await respondToCommand(
    deps,
    req,
    res,
    { position: outcome.position, revision: null },
    { status: 200, body: membership },
  );
}

/** `GET /api/auth/organization/list-invitations`: every invitation of the active organization, with its status. */
export async function listInvitations(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { orgId } = memberManager(req, 'list invitations');
  const { status } = parseInput(invitationListQuerySchema, req.query, 'query');
  const now = deps.now();
  const items = (await invitationsOf(deps.pool, orgId))
    .map((row) => invitationView(row, now))
    .filter((invitation) => status === undefined || invitation.status === status);
  res.json({ organizationId: orgId, items });
}

/**
 * `GET /api/auth/organization/list-user-invitations`: the signed-in user's own pending invitations,
 * matched by the email they signed in with, as an acceptance is; nobody else's. The same credentials
 * as an acceptance: an API key acts in one organization for a pipeline, not as a person joining others.
 */
export async function listUserInvitations(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const caller = requireCredential(callerOf(req), ['session', 'jwt'], 'list your invitations');
  const now = deps.now();
  const rows = await openInvitationsTo(deps.pool, caller.email, caller.userId, now);
  const body: UserInvitationList = {
    // The view's rule decides what is pending: an old invitation also ends with its sender's right.
    items: rows
      .filter((row) => invitationView(row, now).status === 'pending')
      .map((row) => ({
        id: row.id,
        organizationId: row.org_id,
        email: row.email,
        role: row.role,
        invitedBy: row.invited_by,
        expiresAt: row.expires_at.toISOString(),
        createdAt: row.created_at.toISOString(),
        organizationName: row.org_name,
        organizationSlug: row.org_slug,
        invitedByName: row.inviter_name,
      })),
  };
  res.json(body);
}

/**
 * `POST /api/auth/organization/cancel-invitation`: the invitation can no longer be accepted. One already
 * cancelled or expired answers as it is, with nothing recorded.
 */
export async function cancelInvitation(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { caller, orgId } = memberManager(req, 'cancel invitations');
  const { invitationId } = parseInput(cancelInvitationBodySchema, req.body, 'invitation');
  const row = await invitationIn(deps.pool, orgId, invitationId);
  if (!row) throw new DomainError('NOT_FOUND', 'invitation not found');
  const at = deps.now();
  const { outcome, events } = await runOrganizationCommand(
    deps,
    req,
    orgId,
    {
      type: 'CancelInvitation',
      data: { invitationId, now: at.toISOString(), actor: organizationActorOf(caller) },
    },
    { userId: caller.userId, at },
  );
  const view = invitationView(row, at);
  const body: InvitationView =
    events.length === 0
      ? view
      : { ...view, status: 'cancelled', cancelledAt: at.toISOString(), cancelReason: 'cancelled' };
  await respondToCommand(
    deps,
    req,
    res,
    { position: outcome.position, revision: null },
    { status: 200, body },
  );
}
