import type { Request } from 'express';
import { createObject as createInContext, handleCommand, type FoundParent } from '@portal/commands';
import {
  portalObjectDecider,
  streamIdOf,
  type Caller,
  type ItemCommand,
  type PortalKind,
  type PortalObjectCommand,
} from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandContextOf } from './command-context.js';
import { metadataOf } from './metadata.js';
import type { CommandOutcome } from './respond.js';

/** Where the new object goes, and how to append its first events once decided. */
export interface NewObject {
  readonly parent: FoundParent | null;
  /** Decides the create on an object that does not exist yet and appends it, under a fresh id. */
  readonly append: (id: string, command: PortalObjectCommand | ItemCommand) => Promise<CommandOutcome>;
}

/** The command library's create frame with this request's caller and metadata. */
export function createObject<Made extends { readonly id: string }>(
  deps: ApiDependencies,
  req: Request,
  caller: Caller,
  kind: PortalKind,
  parentId: string | null,
  make: (place: NewObject) => Promise<Made>,
): Promise<Made> {
  const context = commandContextOf(deps);
  const metadata = metadataOf(req, deps.now());
  const append = async (id: string, command: PortalObjectCommand | ItemCommand): Promise<CommandOutcome> => {
    const { position, revision } = await handleCommand(context, {
      streamId: streamIdOf(kind, id),
      decider: portalObjectDecider,
      expectedRevision: 'no_stream',
      command,
      metadata,
    });
    return { position, revision };
  };
  return createInContext(context, { kind, parentId, caller, metadata }, (parent) => make({ parent, append }));
}
