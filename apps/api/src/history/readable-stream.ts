import type { Request } from 'express';
import {
  callerPrincipals,
  grantsOf,
  holdsAny,
  DomainError,
  foldState,
  streamIdOf,
  type PortalKind,
  type PortalObjectEvent,
  type RecordedEvent,
} from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandCaller } from '../commands/command-caller.js';
import { requireAccessTo } from '@portal/commands';
import { placementOf } from '@portal/commands';

const kinds: readonly PortalKind[] = ['catalog', 'collection', 'item'];

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
  const streams = await Promise.all(kinds.map((kind) => deps.eventStore.readStream(streamIdOf(kind, id))));
  for (const [index, events] of streams.entries()) {
    const kind = kinds[index];
    const last = events.at(-1);
    if (kind === undefined || last === undefined) continue;
    const state = foldState(events.map(portalEventOf));
    if (state.status === 'absent') continue;
    const object = { id, kind, streamId: streamIdOf(kind, id), state, revision: last.revision };
    const placement = await placementOf(deps.eventStore, object);
    const caller = await commandCaller(deps, req);
    requireAccessTo(caller, placement, 'read', what);
    const mayManage =
      placement.accessPath !== null &&
      holdsAny(callerPrincipals(caller), grantsOf(placement.accessPath).manage);
    return { id, kind, events, mayManage };
  }
  // The very words `requireAccessTo` uses for an object the caller may not read.
  throw new DomainError('NOT_FOUND', `${what} not found`);
}
