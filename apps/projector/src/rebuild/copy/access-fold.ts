import type { Visibility } from '@portal/domain';
import type { FoldedObject, FoldedShare } from './folded-object.js';

// The access columns as the SQL computes them (schema.sql's functions, subtree-access.ts): what a row
// inherits is its parent's, narrowed by its own visibility, with its own shares added (a private row
// starts over from its own shares). Computed parent first, the recursion the SQL's path walk unrolls.

/** What a row passes on to its children (`above` of subtree-access.ts). */
export interface InheritedAccess {
  readonly effectiveVisibility: Visibility;
  readonly shareReaders: readonly string[];
  readonly shareEditors: readonly string[];
}

/** Root level: nothing above. */
export const rootAccess: InheritedAccess = {
  effectiveVisibility: 'public',
  shareReaders: [],
  shareEditors: [],
};

/** `portal_narrower_visibility`. */
export function narrower(a: Visibility, b: Visibility): Visibility {
  if (a === 'private' || b === 'private') return 'private';
  if (a === 'org' || b === 'org') return 'org';
  return 'public';
}

/** Byte order of ASCII text, as `COLLATE "C"` sorts the principals (ids and prefixes are ASCII). */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `portal_principal_set`: distinct, sorted, without NULLs. */
export function principalSet(principals: readonly (string | null)[]): string[] {
  const distinct = new Set<string>();
  for (const principal of principals) if (principal !== null) distinct.add(principal);
  return [...distinct].sort(byteOrder);
}

/** `portal_share_reader`. */
function shareReader(share: FoldedShare): string {
  return `${share.type === 'user' ? 'user:' : 'member:'}${share.id}`;
}

/** `portal_share_editor`: `null` for a viewer. */
function shareEditor(share: FoldedShare): string | null {
  if (share.permission !== 'editor') return null;
  return `${share.type === 'user' ? 'user:' : 'editor:'}${share.id}`;
}

/** `portal_read_principals`. */
export function readPrincipals(
  orgId: string | null,
  createdBy: string | null,
  effectiveVisibility: Visibility,
  shareReaders: readonly string[],
): string[] {
  return principalSet([
    orgId !== null ? `admin:${orgId}` : null,
    orgId !== null && effectiveVisibility !== 'private' ? `member:${orgId}` : null,
    orgId !== null && createdBy !== null ? `member:${orgId}/user:${createdBy}` : null,
    effectiveVisibility === 'public' ? 'public' : null,
    ...shareReaders,
  ]);
}

/** Sets the row's inherited access columns from `above` and its own visibility and shares. */
export function inherit(object: FoldedObject, above: InheritedAccess): void {
  object.effectiveVisibility = narrower(above.effectiveVisibility, object.visibility);
  const own = object.shares;
  if (object.visibility === 'private') {
    object.shareReaders = principalSet(own.map(shareReader));
    object.shareEditors = principalSet(own.map(shareEditor));
  } else if (own.length === 0) {
    object.shareReaders = above.shareReaders;
    object.shareEditors = above.shareEditors;
  } else {
    object.shareReaders = principalSet([...above.shareReaders, ...own.map(shareReader)]);
    object.shareEditors = principalSet([...above.shareEditors, ...own.map(shareEditor)]);
  }
  object.readPrincipals = readPrincipals(
    object.orgId,
    object.createdBy,
    object.effectiveVisibility,
    object.shareReaders,
  );
}
