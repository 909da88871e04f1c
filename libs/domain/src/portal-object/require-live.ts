import { DomainError } from '../errors.js';
import type { LivePortalObject, PortalObjectState } from './state.js';
import { unreachable } from './unreachable.js';

/**
 * The live object a command on an existing object applies to. A deleted object answers like a missing
 * one (`NOT_FOUND`), as reads answer 404 for it; the message still tells a person which case it is.
 * Only a person who could read it: the command handler checks read access on the tombstone's access
 * first (`libs/commands/src/object-permissions.ts`) and answers anyone else as for an unknown id.
 */
export function requireLive(
  id: string,
  state: PortalObjectState,
  ancestorDeleted: boolean,
): LivePortalObject {
  switch (state.status) {
    case 'absent':
      throw new DomainError('NOT_FOUND', `portal object ${id} does not exist`);
    case 'deleted':
      throw new DomainError('NOT_FOUND', `${state.kind} ${id} was deleted`);
    case 'live':
      if (ancestorDeleted) {
        throw new DomainError('NOT_FOUND', `${state.kind} ${id} was deleted with an ancestor`);
      }
      return state;
    default:
      return unreachable(state);
  }
}
