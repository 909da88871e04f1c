import { atLeast, narrowerVisibility, type Role, type Visibility } from './roles.js';
import type { ObjectAccess, Share, SharePrincipal } from './object-access.js';

/**
 * Principals are the strings both sides of every access check are made of: a caller holds some, an
 * object grants some, and access is their overlap. The projector stores an object's read principals in
 * an array column, so the same overlap is one `&&` in SQL.
 */
export const PUBLIC = 'public';
export const userPrincipal = (userId: string): string => `user:${userId}`;
/** Every member of the organization, whatever their role. */
export const memberPrincipal = (orgId: string): string => `member:${orgId}`;
/** Editors, admins and owners of the organization. */
export const editorPrincipal = (orgId: string): string => `editor:${orgId}`;
/** Admins and owners of the organization. */
export const adminPrincipal = (orgId: string): string => `admin:${orgId}`;
/**
 * The user while a member of the organization: what a creator's right to read their own objects hangs
 * on, so that leaving the organization ends it.
 */
export const memberUserPrincipal = (orgId: string, userId: string): string =>
  `member:${orgId}/user:${userId}`;
/**
 * The user while an editor (or more) of the organization: what a creator's right to change their own
 * objects hangs on. A viewer (or a viewer-role API key) keeps reading what they created, nothing more.
 */
export const editorUserPrincipal = (orgId: string, userId: string): string =>
  `editor:${orgId}/user:${userId}`;

/** Who is asking: a user acting in one organization with one role, or no one. */
export interface Caller {
  readonly userId: string | null;
  /** The credential's organization (the session's active one, the API key's own). */
  readonly orgId: string | null;
  /** The user's current role there (capped by an API key's role); `null` when not a member. */
  readonly role: Role | null;
}

export const anonymous: Caller = { userId: null, orgId: null, role: null };

export function callerPrincipals(caller: Caller): string[] {
  const held = [PUBLIC];
  if (caller.userId !== null) held.push(userPrincipal(caller.userId));
  if (caller.orgId !== null && caller.role !== null) {
    held.push(memberPrincipal(caller.orgId));
    if (caller.userId !== null) held.push(memberUserPrincipal(caller.orgId, caller.userId));
    if (atLeast(caller.role, 'editor')) {
      held.push(editorPrincipal(caller.orgId));
      if (caller.userId !== null) held.push(editorUserPrincipal(caller.orgId, caller.userId));
    }
    if (atLeast(caller.role, 'admin')) held.push(adminPrincipal(caller.orgId));
  }
  return held;
}

/** What an object grants, given its own access facts and its ancestors'. */
export interface ObjectGrants {
  readonly orgId: string | null;
  /** The narrowest visibility on the path from the root level down to the object. */
  readonly effectiveVisibility: Visibility;
  readonly read: readonly string[];
  readonly edit: readonly string[];
  /** Change visibility, share, unshare. */
  readonly manage: readonly string[];
}

function shareReader(principal: SharePrincipal): string {
  return principal.type === 'user' ? userPrincipal(principal.id) : memberPrincipal(principal.id);
}

function shareEditor(principal: SharePrincipal): string {
  return principal.type === 'user' ? userPrincipal(principal.id) : editorPrincipal(principal.id);
}

/**
 * The shares that reach the last object of `path`: those of every object on the path, except that an
 * object private on its own stops the shares above it. A share reaches the shared object and everything
 * below it down to, not into, a descendant someone made private: sharing a catalog never opens what was
 * deliberately kept to admins and its creator. That private object's own shares apply to it and below.
 */
export function sharesReaching(path: readonly ObjectAccess[]): Share[] {
  let from = 0;
  path.forEach((step, index) => {
    if (step.visibility === 'private') from = index;
  });
  return path.slice(from).flatMap((step) => step.shares);
}

/**
 * The grants of the last object of `path` (root level first, the object last). Shares on the path
 * apply below, down to an object private on its own (`sharesReaching`); the visibility is the narrowest
 * on the path; the organization is the object's own.
 */
export function grantsOf(path: readonly ObjectAccess[]): ObjectGrants {
  const object = path.at(-1);
  if (object === undefined) throw new Error('grantsOf needs at least the object itself');
  const effectiveVisibility = path.reduce<Visibility>(
    (narrowest, step) => narrowerVisibility(narrowest, step.visibility),
    'public',
  );
  const read = new Set<string>();
  const edit = new Set<string>();
  const manage = new Set<string>();
  const { orgId, createdBy } = object;
  if (orgId !== null) {
    for (const set of [read, edit, manage]) set.add(adminPrincipal(orgId));
    if (effectiveVisibility !== 'private') {
      read.add(memberPrincipal(orgId));
      edit.add(editorPrincipal(orgId));
    }
  }
  if (createdBy !== null && orgId !== null) {
    read.add(memberUserPrincipal(orgId, createdBy));
    edit.add(editorUserPrincipal(orgId, createdBy));
    manage.add(editorUserPrincipal(orgId, createdBy));
  }
  if (effectiveVisibility === 'public') read.add(PUBLIC);
  for (const share of sharesReaching(path)) {
    read.add(shareReader(share.principal));
    if (share.permission === 'editor') edit.add(shareEditor(share.principal));
  }
  return {
    orgId,
    effectiveVisibility,
    read: [...read].sort(),
    edit: [...edit].sort(),
    manage: [...manage].sort(),
  };
}

export function holdsAny(held: readonly string[], granted: readonly string[]): boolean {
  return granted.some((principal) => held.includes(principal));
}
