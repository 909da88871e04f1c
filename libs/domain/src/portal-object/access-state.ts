import { samePrincipal, type ObjectAccess } from '../access/object-access.js';
import type { AccessEvent, CreatedAccess } from './events.js';
import { unreachable } from './unreachable.js';

/** A new object's access: what its create event recorded, no shares yet. */
export function accessOfCreated({ orgId, visibility, createdBy }: CreatedAccess): ObjectAccess {
  return { orgId, visibility, createdBy, shares: [] };
}

/** Applies a visibility change or a share; a share to a principal already shared with replaces that one. */
export function evolveAccess(access: ObjectAccess, event: AccessEvent): ObjectAccess {
  switch (event.type) {
    case 'VisibilityChanged':
      return { ...access, visibility: event.data.to };
    case 'ObjectShared': {
      const { principal, permission } = event.data;
      const shared = { principal, permission };
      // A replaced share keeps its place, so the list stays in the order principals were first shared with.
      const replaced = access.shares.some((share) => samePrincipal(share.principal, principal));
      const shares = replaced
        ? access.shares.map((share) => (samePrincipal(share.principal, principal) ? shared : share))
        : [...access.shares, shared];
      return { ...access, shares };
    }
    case 'ObjectUnshared': {
      const { principal } = event.data;
      return {
        ...access,
        shares: access.shares.filter((share) => !samePrincipal(share.principal, principal)),
      };
    }
    default:
      return unreachable(event);
  }
}
