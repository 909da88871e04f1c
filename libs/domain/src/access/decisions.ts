import { DomainError } from '../errors.js';
import type { ObjectAccess } from './object-access.js';
import {
  adminPrincipal,
  callerPrincipals,
  grantsOf,
  holdsAny,
  type Caller,
  type ObjectGrants,
} from './principals.js';
import { atLeast, type Role } from './roles.js';

export type ObjectAction = 'read' | 'edit' | 'manage';

/**
 * Refuses a command on an object unless the caller may do `action` there. An object the caller cannot
 * read is reported exactly as a missing one (NOT_FOUND), so refusals never reveal what exists; one they
 * can read but not change is FORBIDDEN, or UNAUTHENTICATED for an anonymous caller.
 */
export function requireObjectAccess(
  caller: Caller,
  grants: ObjectGrants,
  action: ObjectAction,
  what: string,
): void {
  const held = callerPrincipals(caller);
  if (!holdsAny(held, grants.read)) throw new DomainError('NOT_FOUND', `${what} not found`);
  if (action === 'read') return;
  if (caller.userId === null) {
    throw new DomainError('UNAUTHENTICATED', `sign in to change ${what}`);
  }
  if (!holdsAny(held, action === 'edit' ? grants.edit : grants.manage)) {
    throw new DomainError(
      'FORBIDDEN',
      action === 'edit'
        ? `you may read ${what} but not change it`
        : `only the organization's admins and owners, and its creator, may change who sees ${what}`,
    );
  }
}

export function canRead(caller: Caller, grants: ObjectGrants): boolean {
  return holdsAny(callerPrincipals(caller), grants.read);
}

/** Refuses unless the caller is signed in and holds at least `minimum` in their active organization. */
export function requireRole(caller: Caller, minimum: Role, doing: string): void {
  if (caller.userId === null) throw new DomainError('UNAUTHENTICATED', `sign in to ${doing}`);
  if (caller.orgId === null || !atLeast(caller.role, minimum)) {
    throw new DomainError(
      'FORBIDDEN',
      `${doing} needs the ${minimum} role or higher in the active organization`,
    );
  }
}

/**
 * Whether an object placed at `after` (the access facts from the root level down to it at its new
 * place) would give someone a right to read or change it that `before` (its current place) does not.
 * What is below the object inherits only through it, so it cannot gain more than the object itself.
 */
export function widensAccess(before: readonly ObjectAccess[], after: readonly ObjectAccess[]): boolean {
  const was = grantsOf(before);
  const will = grantsOf(after);
  const gains = (granted: readonly string[], had: readonly string[]) =>
    granted.some((principal) => !had.includes(principal));
  return gains(will.read, was.read) || gains(will.edit, was.edit);
}

/** Whether the caller is an admin or owner of the organization (they may read and change all of it). */
export function isAdminOf(caller: Caller, orgId: string | null): boolean {
  return orgId !== null && callerPrincipals(caller).includes(adminPrincipal(orgId));
}
