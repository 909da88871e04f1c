import {
  portalObjectDecider,
  type Caller,
  type Decider,
  type EventMetadata,
  type ItemCommand,
  type ObjectAction,
  type PortalKind,
  type PortalObjectCommand,
  type PortalObjectEvent,
  type PortalObjectState,
} from '@portal/domain';
import type { CommandContext } from './command-context.js';
import { withConsistentRefusals } from './consistent-refusal.js';
import { handleCommand, type CommandResult } from './handler/handle-command.js';
import { loadObject, objectOf, placementOf, type LoadedObject, type Placement } from './object-repository.js';
import { requireAccessTo, requireFound } from './object-permissions.js';

type ObjectCommand = PortalObjectCommand | ItemCommand;

/** The object a change applies to, as its stream and its ancestors' have it, and who asks. */
export interface ChangeTarget {
  readonly object: LoadedObject;
  readonly placement: Placement;
  readonly caller: Caller;
}

export interface ChangeRequest {
  readonly id: string;
  /** The kinds the id may name (`item` only for uploads); any kind by default. */
  readonly kinds?: readonly PortalKind[];
  readonly caller: Caller;
  /** What the caller must be allowed to do on the object: `edit`, or `manage` for who may see it. */
  readonly action: ObjectAction;
  /** `If-Match`: the object's revision the caller last read; without it a race is decided again. */
  readonly expectedRevision?: bigint;
  readonly metadata: EventMetadata;
  /** The domain command, from the object as its stream has it (on every attempt). */
  readonly command: (target: ChangeTarget) => ObjectCommand | Promise<ObjectCommand>;
  /** The portal-object decider by default; a writer may add refusals of its own on top. */
  readonly decider?: Decider<ObjectCommand, PortalObjectEvent, PortalObjectState>;
}

export interface ChangeResult extends CommandResult<PortalObjectEvent, PortalObjectState> {
  /** The object as it was before the change. */
  readonly object: LoadedObject;
}

/**
 * A change to one existing object that is not a move or a delete (those are structure operations):
 * an update, its visibility or shares, an upload step. The permission check comes right after the load,
 * before `If-Match` and the rules: an object the caller may not read answers 404 like an unknown id,
 * whatever else is wrong with the request.
 */
export function changeObject(context: CommandContext, request: ChangeRequest): Promise<ChangeResult> {
  // A refusal leaves nothing appended, so the whole command may run again on fresh reads.
  return withConsistentRefusals(context, (reading) => changeOnce(reading, request));
}

async function changeOnce(context: CommandContext, request: ChangeRequest): Promise<ChangeResult> {
  const { id, caller, action } = request;
  const kinds = request.kinds ?? ['catalog', 'collection', 'item'];
  const what = `${kinds.length === 1 ? (kinds[0] ?? 'portal item') : 'portal item'} ${id}`;
  const found = requireFound(await loadObject(context.store, id, kinds), what);
  const result = await handleCommand(context, {
    streamId: found.streamId,
    decider: request.decider ?? portalObjectDecider,
    initial: found.stream,
    metadata: request.metadata,
    ...(request.expectedRevision === undefined ? {} : { expectedRevision: request.expectedRevision }),
    command: async (stream) => {
      const object = requireFound(objectOf(id, found.kind, stream), what);
      const placement = await placementOf(context.store, object);
      requireAccessTo(caller, placement, action, what);
      return request.command({ object, placement, caller });
    },
  });
  const object = requireFound(objectOf(id, found.kind, result.before), what);
  return { ...result, object };
}
