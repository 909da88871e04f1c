import type { Request } from 'express';
import { createObject as createInContext, type FoundParent } from '@portal/commands';
import type { Caller, PortalKind } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandContextOf } from './command-context.js';
import { metadataOf } from './metadata.js';

/** The command library's create frame with this request's caller and metadata. */
export function createObject<Made extends { readonly id: string }>(
  deps: ApiDependencies,
  req: Request,
  caller: Caller,
  kind: PortalKind,
  parentId: string | null,
  make: (parent: FoundParent | null) => Promise<Made>,
): Promise<Made> {
  const request = { kind, parentId, caller, metadata: metadataOf(req, deps.now) };
  return createInContext(commandContextOf(deps), request, make);
}
