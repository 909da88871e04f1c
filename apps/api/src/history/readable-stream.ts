import type { Request } from 'express';
import {
  callerPrincipals,
  grantsOf,
  holdsAny,
  type PortalKind,
  type PortalObjectEvent,
  type RecordedEvent,
} from '@portal/domain';
import { loadObject, placementOf, requireAccessTo, requireFound } from '@portal/commands';
import type { ApiDependencies } from '../dependencies.js';
import { commandCaller } from '../commands/command-caller.js';

/** An object's own stream, every event as recorded, oldest first. */
export interface ObjectStream {
  readonly id: string;
  readonly kind: PortalKind;
  readonly events: readonly RecordedEvent[];
  /**
   * Whether the caller may manage who sees the object (the right `GET …/shares` needs). Without it,
   * the history does not say whom the object is shared with.
   */
  readonly mayManage: boolean;
}

export function portalEventOf(recorded: RecordedEvent): PortalObjectEvent {
  return { type: recorded.type, data: recorded.data } as PortalObjectEvent;
}

/**
 * The object's stream, once the caller is known to be allowed to read the object: checked against the
 * event store (the object's and its ancestors' streams, the caller's current role), never the read
 * model. Tombstones keep their access facts, so the history of a deleted object stays readable to whoever
 * could read it. An object the caller cannot read answers exactly as an unknown id.
 */
export async function readableStream(
  deps: Pick<ApiDependencies, 'eventStore'>,
  req: Request,
  id: string,
): Promise<ObjectStream> {
  const what = `portal item ${id}`;
  // Unknown: the very words `requireAccessTo` uses for an object the caller may not read.
  const object = requireFound(await loadObject(deps.eventStore, id), what);
  const placement = await placementOf(deps.eventStore, object);
  const caller = await commandCaller(deps, req);
  requireAccessTo(caller, placement, 'read', what);
  const mayManage =
    placement.accessPath !== null &&
    holdsAny(callerPrincipals(caller), grantsOf(placement.accessPath).manage);
  return { id, kind: object.kind, events: object.stream.events, mayManage };
}
