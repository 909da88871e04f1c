import { effectiveVisibility, sharesReaching, type WorldObject } from './world.js';

/**
 * docs/identity.md, "Moves never widen access": a move is refused (to all but an admin and the creator
 * of the whole subtree) when the new place would give anyone a right the old one did not — a share
 * above it, a broader visibility on its path. "A right" is counted per grant, in the test's own terms:
 * the organization's members (by visibility, or by a share to the organization), everyone (public), a
 * named user (a share), an organization's editors. A grant that is there before and after, by whatever
 * way, is no widening.
 */
interface Grants {
  readonly read: ReadonlySet<string>;
  readonly edit: ReadonlySet<string>;
}

/** The grants of the last object of `path` (root level first), which may be a place it is not yet in. */
function grantsAlong(path: readonly WorldObject[]): Grants {
  const object = path.at(-1);
  if (!object) throw new Error('a path has at least the object');
  const visibility = effectiveVisibility(path);
  const read = new Set<string>();
  const edit = new Set<string>();
  if (visibility === 'public') read.add('everyone');
  if (visibility !== 'private') {
    read.add(`members of ${object.orgId}`);
    edit.add(`editors of ${object.orgId}`);
  }
  for (const { principal, permission } of sharesReaching(path)) {
    const reader = principal.type === 'user' ? `user ${principal.id}` : `members of ${principal.id}`;
    read.add(reader);
    if (permission === 'editor') {
      edit.add(principal.type === 'user' ? `user ${principal.id}` : `editors of ${principal.id}`);
    }
  }
  return { read, edit };
}

export function widens(before: readonly WorldObject[], after: readonly WorldObject[]): boolean {
  const was = grantsAlong(before);
  const will = grantsAlong(after);
  const gains = (granted: ReadonlySet<string>, had: ReadonlySet<string>) =>
    [...granted].some((grant) => !had.has(grant));
  return gains(will.read, was.read) || gains(will.edit, was.edit);
}
