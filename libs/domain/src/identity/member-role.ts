import { DomainError } from '../errors.js';
import { atLeast, weakerRole, type Role } from '../access/roles.js';
import type { OrganizationActor } from './organization-commands.js';
import type { OrganizationState } from './organization-state.js';

export type LiveOrganization = Extract<OrganizationState, { status: 'live' }>;

/**
 * The actor's current role from the organization's own events, capped by their credential (an API key
 * never acts above its role), checked against `minimum`. A non-member learns nothing (NOT_FOUND).
 */
export function requireMemberRole(
  state: LiveOrganization,
  actor: OrganizationActor,
  minimum: Role,
  doing: string,
): Role {
  const member = state.members.get(actor.userId) ?? null;
  if (member === null) throw new DomainError('NOT_FOUND', 'organization not found');
  const role = actor.roleCap === null ? member : weakerRole(member, actor.roleCap);
  if (!atLeast(role, minimum))
    throw new DomainError('FORBIDDEN', `to ${doing} you need the ${minimum} role or higher`);
  return role;
}

/** The role needed to invite someone at `invited`: admin, and owner to invite an owner. */
export function roleNeededToInvite(invited: Role): Role {
  return invited === 'owner' ? 'owner' : 'admin';
}

/** Whether a member with `role` (null: no longer a member) may invite someone at `invited`. */
export function mayInviteAs(role: Role | null, invited: Role): boolean {
  return atLeast(role, roleNeededToInvite(invited));
}
