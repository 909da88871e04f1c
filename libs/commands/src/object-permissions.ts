import {
  canRead,
  DomainError,
  grantsOf,
  parentNotFound,
  requireObjectAccess,
  requireRole,
  type Caller,
  type NewObjectAccess,
  type ObjectAccess,
  type ObjectAction,
  type PortalKind,
  type Visibility,
} from '@portal/domain';
import type { FoundParent } from './object-repository.js';

/**
 * What each command requires of its caller, as pure functions over event-sourced facts (the access
 * paths the repository walks, the caller's current role), so the rules of docs/identity.md are tested
 * without HTTP. They run before `decide`: an object the caller cannot read is refused as missing before
 * any rule about it could reveal that it exists.
 */

export function requireFound<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new DomainError('NOT_FOUND', `${what} not found`);
  return value;
}

/** An anonymous caller writes nothing: 401 before anything is looked up. */
export function requireSignedIn(caller: Caller, doing: string): void {
  if (caller.userId === null) throw new DomainError('UNAUTHENTICATED', `sign in to ${doing}`);
}

/** Where the object stands, for its permission check (`Placement` of the repository). */
export interface AccessTarget {
  /** From the root level down to the object, tombstones included; `null`: an ancestor is missing. */
  readonly accessPath: readonly ObjectAccess[] | null;
  /** The object or an ancestor carries a tombstone. */
  readonly deleted: boolean;
}

/**
 * `action` on an existing object: `edit` for update, move, delete and uploads; `manage` for visibility
 * and shares. The read check comes first, whether the object is live or deleted: a caller who cannot
 * read it is answered exactly as for an unknown id (`${what} not found`), before any rule that could
 * tell it exists or what it is. A deleted object the caller could read is left to the decider, which
 * says it was deleted (the rights to change it no longer matter). An ancestor whose stream is missing
 * leaves nothing to grant anything on: missing too.
 */
export function requireAccessTo(
  caller: Caller,
  target: AccessTarget,
  action: ObjectAction,
  what: string,
): void {
  const grants = target.accessPath === null ? null : grantsOf(target.accessPath);
  if (grants === null || !canRead(caller, grants)) {
    throw new DomainError('NOT_FOUND', `${what} not found`);
  }
  if (target.deleted) return;
  requireObjectAccess(caller, grants, action, what);
}

/**
 * The parent a new or moved object goes under must be one the caller may edit. A parent they cannot
 * read, live or deleted, is reported in the very words of a missing one (409 `PARENT_NOT_FOUND`), so the
 * answer does not tell it exists. A missing parent, and a deleted one the caller could read, are left
 * to the decider's tree rules ("does not exist", "was deleted").
 */
export function requireParentAccess(caller: Caller, parent: FoundParent): void {
  const { lookup, accessPath } = parent;
  if (!lookup.found) return;
  const grants = accessPath === null ? null : grantsOf(accessPath);
  if (grants === null || !canRead(caller, grants)) throw parentNotFound(lookup.id);
  if (lookup.deleted) return;
  requireObjectAccess(caller, grants, 'edit', `parent ${lookup.kind} ${lookup.id}`);
}

/**
 * A create: signed in; at root level the editor role in the active organization (which will own the
 * object); below a parent, edit rights on it (the parent's organization will own the object).
 */
export function requireCreateRights(caller: Caller, kind: PortalKind, parent: FoundParent | null): void {
  requireSignedIn(caller, `create a ${kind}`);
  if (parent === null) requireRole(caller, 'editor', `creating a ${kind} at root level`);
  else requireParentAccess(caller, parent);
}

export interface MovedObject {
  readonly what: string;
  readonly orgId: string | null;
  readonly parentId: string | null;
}

/**
 * The target of a move (edit rights on the object itself are checked first): edit rights on the new
 * parent, or the editor role in the object's own organization to move it to its root level. Staying
 * where it is asks nothing more: the decider records nothing for it.
 */
export function requireMoveTarget(caller: Caller, object: MovedObject, parent: FoundParent | null): void {
  const toParentId = parent?.lookup.id ?? null;
  if (toParentId === object.parentId) return;
  if (parent !== null) {
    requireParentAccess(caller, parent);
    return;
  }
  requireRole(caller, 'editor', `moving ${object.what} to the root level`);
  if (caller.orgId !== object.orgId) {
    throw new DomainError(
      'FORBIDDEN',
      `moving ${object.what} to the root level needs the editor role in its own organization; make that organization the active one`,
    );
  }
}

/** The access a create command records for the caller: their organization, them, the visibility asked. */
export function newObjectAccess(caller: Caller, visibility: Visibility | undefined): NewObjectAccess {
  return {
    orgId: caller.orgId,
    createdBy: caller.userId,
    ...(visibility === undefined ? {} : { visibility }),
  };
}
