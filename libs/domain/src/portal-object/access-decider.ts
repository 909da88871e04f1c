import { samePrincipal } from '../access/object-access.js';
import { DomainError } from '../errors.js';
import type { AccessCommand, ChangeVisibility, ShareObject, UnshareObject } from './access-commands.js';
import type { NewObjectAccess, ParentLookup } from './commands.js';
import type { AccessEvent, CreatedAccess } from './events.js';
import { requireLive } from './require-live.js';
import type { PortalObjectState } from './state.js';
import { unreachable } from './unreachable.js';

/** Objects are visible to their whole organization unless the creator says otherwise. */
export const defaultVisibility = 'org';

/**
 * The access a create event records. An object belongs to its parent's organization, whoever creates
 * it (a user of another organization with an editor share adds to the parent's organization); a
 * root-level object to the creator's active one. Called after the placement checks found the parent.
 */
export function createdAccess(requested: NewObjectAccess, parent: ParentLookup | null): CreatedAccess {
  return {
    orgId: parent?.found === true ? parent.orgId : requested.orgId,
    visibility: requested.visibility ?? defaultVisibility,
    createdBy: requested.createdBy,
  };
}

/** The access commands' half of `decide`. Repeating what is already so records nothing. */
export function decideAccess(command: AccessCommand, state: PortalObjectState): AccessEvent[] {
  switch (command.type) {
    case 'ChangeVisibility':
      return changeVisibility(command, state);
    case 'ShareObject':
      return share(command, state);
    case 'UnshareObject':
      return unshare(command, state);
    default:
      return unreachable(command);
  }
}

function changeVisibility({ data }: ChangeVisibility, state: PortalObjectState): AccessEvent[] {
  const object = requireLive(data.id, state, data.ancestorDeleted);
  const from = object.access.visibility;
  if (from === data.visibility) return [];
  return [
    { type: 'VisibilityChanged', data: { id: object.id, kind: object.kind, from, to: data.visibility } },
  ];
}

function share({ data }: ShareObject, state: PortalObjectState): AccessEvent[] {
  const object = requireLive(data.id, state, data.ancestorDeleted);
  const { principal, permission } = data;
  // A share to oneself adds nothing while one may manage the object, and would keep rights that came
  // through membership (an editor's own objects, an admin's role) after leaving the organization.
  if (principal.type === 'user' && principal.id === data.sharedBy) {
    throw new DomainError(
      'INVALID_COMMAND',
      'principal: you cannot share an object with yourself; your rights come from your organization',
    );
  }
  if (!data.principalExists) {
    throw new DomainError('INVALID_COMMAND', `principal: ${principal.type} ${principal.id} does not exist`);
  }
  const previous = object.access.shares.find((existing) => samePrincipal(existing.principal, principal));
  if (previous?.permission === permission) return [];
  return [
    {
      type: 'ObjectShared',
      data: { id: object.id, kind: object.kind, principal, permission, previous: previous ?? null },
    },
  ];
}

function unshare({ data }: UnshareObject, state: PortalObjectState): AccessEvent[] {
  const object = requireLive(data.id, state, data.ancestorDeleted);
  const { principal } = data;
  const existing = object.access.shares.find((share) => samePrincipal(share.principal, principal));
  if (!existing) {
    throw new DomainError(
      'NOT_FOUND',
      `share not found: ${object.kind} ${object.id} is not shared with ${principal.type} ${principal.id}`,
    );
  }
  return [
    {
      type: 'ObjectUnshared',
      data: { id: object.id, kind: object.kind, principal, permission: existing.permission },
    },
  ];
}
