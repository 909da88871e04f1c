import type { Request } from 'express';
import { DomainError, type Caller } from '@portal/domain';
import { commandCaller } from '../../commands/command-caller.js';
import type { ApiDependencies } from '../../dependencies.js';

/**
 * Who writes: a signed-in caller, or 401 before anything is looked up, as the portal API answers an
 * anonymous write whatever it names.
 */
export async function signedInCaller(deps: ApiDependencies, req: Request): Promise<Caller> {
  const caller = await commandCaller(deps, req);
  if (caller.userId === null) throw new DomainError('UNAUTHENTICATED', 'sign in to change the catalog');
  return caller;
}
