import {
  ConcurrencyError,
  portalObjectDecider,
  type PortalObjectEvent,
  type Position,
  type StreamAppend,
} from '@portal/domain';
import { changeObject, type ChangeRequest } from '../change-object.js';
import type { CommandContext } from '../command-context.js';
import { changedSince, requireRevision } from '../handler/expected-revision.js';
import { loadObject, objectOf, placementOf, type LoadedObject } from '../object-repository.js';
import { requireAccessTo, requireFound } from '../object-permissions.js';
import { appendAll } from './append-all.js';
import { mapLimited, settle } from './map-limited.js';

export type ChangeOutcome =
  | {
      readonly ok: true;
      /** The object as it was before the change. */
      readonly object: LoadedObject;
      /** `null` when the decider found nothing to change. */
      readonly position: Position | null;
      readonly revision: bigint;
    }
  | { readonly ok: false; readonly error: Error };

/** Object loads in flight at once (each reads the object's and its ancestors' streams). */
const CONCURRENCY = 8;

interface Decided {
  readonly object: LoadedObject;
  /** `null`: nothing to append. */
  readonly append: StreamAppend | null;
}

/**
 * Several `changeObject`s appended together: each is decided on its object as read, with the same
 * checks in the same order, then every decided one is appended in one `appendMany` with the revision
 * it was decided on. One that lost a race meanwhile is refused with `STALE_REVISION` if it carried an
 * expected revision, and otherwise handed to `changeObject`, which decides it again. No object may be
 * named twice: a stream appears once per `appendMany`.
 */
export async function changeObjects(
  context: CommandContext,
  requests: readonly ChangeRequest[],
): Promise<ChangeOutcome[]> {
  const decided = await mapLimited(requests, CONCURRENCY, (request) =>
    settle(() => decideChange(context, request)),
  );
  const appends = decided.flatMap((settled) =>
    settled.ok && settled.value.append ? [settled.value.append] : [],
  );
  const appended = await appendAll(context, appends);
  let next = 0;
  const outcomes = decided.map((settled, index) => {
    if (!settled.ok) return Promise.resolve<ChangeOutcome>(settled);
    const { object, append } = settled.value;
    if (!append)
      return Promise.resolve<ChangeOutcome>({ ok: true, object, position: null, revision: object.revision });
    const outcome = appended[next++] ?? { ok: false, error: new Error('no append outcome') };
    if (outcome.ok) {
      const { position, nextRevision } = outcome.result;
      return Promise.resolve<ChangeOutcome>({ ok: true, object, position, revision: nextRevision });
    }
    return lostRace(context, requests[index] as ChangeRequest, outcome.error);
  });
  return Promise.all(outcomes);
}

async function decideChange(context: CommandContext, request: ChangeRequest): Promise<Decided> {
  const { id, caller, action, expectedRevision } = request;
  const kinds = request.kinds ?? ['catalog', 'collection', 'item'];
  const what = `${kinds.length === 1 ? (kinds[0] ?? 'portal item') : 'portal item'} ${id}`;
  const found = requireFound(await loadObject(context.store, id, kinds), what);
  const object = requireFound(objectOf(id, found.kind, found.stream), what);
  const placement = await placementOf(context.store, object);
  requireAccessTo(caller, placement, action, what);
  const command = await request.command({ object, placement, caller });
  requireRevision(expectedRevision, found.revision);
  const decider = request.decider ?? portalObjectDecider;
  const events: readonly PortalObjectEvent[] = decider.decide(command, found.state);
  if (events.length === 0) return { object, append: null };
  const { metadata } = request;
  return {
    object,
    append: {
      streamId: found.streamId,
      events: events.map((event) => ({ id: context.newId(), type: event.type, data: event.data, metadata })),
      expectedRevision: found.revision,
    },
  };
}

/** An append refused: a race is decided again (or refused as stale under `If-Match`); else the error. */
async function lostRace(
  context: CommandContext,
  request: ChangeRequest,
  error: Error,
): Promise<ChangeOutcome> {
  if (!(error instanceof ConcurrencyError)) return { ok: false, error };
  if (request.expectedRevision !== undefined)
    return { ok: false, error: changedSince(request.expectedRevision) };
  const retried = await settle(() => changeObject(context, request));
  if (!retried.ok) return retried;
  const { object, position, revision } = retried.value;
  return { ok: true, object, position, revision: revision ?? object.revision };
}
