/**
 * Who may read an object, written from docs/identity.md alone (the roles table, "Visibility" and
 * "Shares") and not from the domain's access module, whose principals the read models are filled with:
 * the read tests compare what the service shows with the documented rules, not with itself.
 */

export type ModelRole = 'viewer' | 'editor' | 'admin' | 'owner';
export type ModelVisibility = 'private' | 'org' | 'public';

/** Who asks: a user acting in one organization with their role there, or nobody. */
export interface ModelCaller {
  readonly userId: string | null;
  /** The credential's active organization. */
  readonly orgId: string | null;
  /** The caller's role in it; `null` when not a member (or anonymous). */
  readonly role: ModelRole | null;
}

export interface ModelShare {
  readonly principal: { readonly type: 'user' | 'organization'; readonly id: string };
  readonly permission: 'viewer' | 'editor';
}

/** One object's own access facts. */
export interface ModelObject {
  /** `null`: recorded before identity existed, which makes it public. */
  readonly orgId: string | null;
  readonly visibility: ModelVisibility;
  readonly createdBy: string | null;
  readonly shares: readonly ModelShare[];
}

const narrowness: Record<ModelVisibility, number> = { public: 0, org: 1, private: 2 };

/** "The effective visibility is the most restrictive along the path from the root." */
function effectiveVisibility(path: readonly ModelObject[]): ModelVisibility {
  return path.reduce<ModelVisibility>(
    (narrowest, step) => (narrowness[step.visibility] > narrowness[narrowest] ? step.visibility : narrowest),
    'public',
  );
}

/** "A share to an organization gives its members read access": those acting in it. */
function isShareHolder(caller: ModelCaller, share: ModelShare): boolean {
  return share.principal.type === 'user'
    ? caller.userId === share.principal.id
    : caller.role !== null && caller.orgId === share.principal.id;
}

/**
 * A share on S reaches S and everything below it, down to but not into an object whose own visibility
 * is `private` (sharing that private object itself reaches it).
 */
function isSharedWith(caller: ModelCaller, path: readonly ModelObject[]): boolean {
  return path.some(
    (step, index) =>
      path.slice(index + 1).every((below) => below.visibility !== 'private') &&
      step.shares.some((share) => isShareHolder(caller, share)),
  );
}

/** Whether `caller` may read the last object of `path` (the root-level object first). */
export function mayRead(caller: ModelCaller, path: readonly ModelObject[]): boolean {
  const object = path.at(-1);
  if (object === undefined) throw new Error('a path holds at least the object itself');
  const visibility = object.orgId === null ? 'public' : effectiveVisibility(path);
  if (visibility === 'public') return true;
  const member = caller.role !== null && caller.orgId === object.orgId;
  // The roles table: every member reads `org` objects; admins and owners also `private` ones, the
  // others their own.
  if (member && visibility === 'org') return true;
  if (member && (caller.role === 'admin' || caller.role === 'owner')) return true;
  if (member && object.createdBy !== null && object.createdBy === caller.userId) return true;
  // "Shares add to what visibility gives; they never take away."
  return isSharedWith(caller, path);
}
