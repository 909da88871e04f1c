import type { RequestHandler } from 'express';
import { shareBodySchema, shareParamsSchema, type ShareList, type ShareRecord } from '@portal/contracts';
import {
  organizationStreamId,
  samePrincipal,
  userStreamId,
  type EventStore,
  type SharePrincipal,
} from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { changeHandler } from '../commands/change-handler.js';
import { commandCaller } from '../commands/command-caller.js';
import { requireFound, requireAccessTo, loadObject, placementOf, type LoadedObject } from '@portal/commands';
import { etagOf } from '../http/consistency.js';
import { idParamsSchema } from '../http/params.js';
import { parseInput } from '../http/validate.js';

/** Whether the user or organization a share names exists: its stream does. */
async function principalExists(store: EventStore, principal: SharePrincipal): Promise<boolean> {
  const stream = principal.type === 'user' ? userStreamId(principal.id) : organizationStreamId(principal.id);
  return (await store.readStream(stream)).length > 0;
}

function sharesOf(object: LoadedObject): readonly ShareRecord[] {
  return object.state.status === 'live' ? object.state.access.shares : [];
}

/**
 * `POST /api/v1/portal/items/{id}/shares`: gives a user or an organization `viewer` or `editor` rights on
 * the object and everything below it. 201 for a new share (with `Location`), 200 when it replaces the
 * principal's earlier share or repeats it (then nothing is recorded).
 */
export function shareObject(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, {
    parse: (req) => parseInput(shareBodySchema, req.body, 'body'),
    action: 'manage',
    command: async ({ principal, permission }, { object, placement, caller }) => ({
      type: 'ShareObject',
      data: {
        id: object.id,
        principal,
        permission,
        principalExists: await principalExists(deps.eventStore, principal),
        sharedBy: caller.userId,
        ancestorDeleted: placement.ancestorDeleted,
      },
    }),
    answer: ({ principal, permission }, object) => {
      const body: ShareRecord = { principal, permission };
      if (sharesOf(object).some((share) => samePrincipal(share.principal, principal))) {
        return { status: 200, body };
      }
      const location = `/api/v1/portal/items/${object.id}/shares/${principal.type}/${principal.id}`;
      return { status: 201, body, headers: { Location: location } };
    },
  });
}

/** `DELETE /api/v1/portal/items/{id}/shares/{type}/{principalId}`: 204; a share that is not there, 404. */
export function unshareObject(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, {
    parse: (req) => {
      const { type, principalId } = parseInput(shareParamsSchema, req.params, 'path');
      return { type, id: principalId };
    },
    action: 'manage',
    command: (principal, { object, placement }) => ({
      type: 'UnshareObject',
      data: { id: object.id, principal, ancestorDeleted: placement.ancestorDeleted },
    }),
    answer: (principal, object) => ({ status: 204, body: { id: object.id, principal } }),
  });
}

/**
 * `GET /api/v1/portal/items/{id}/shares`: the object's own shares, from its stream (never a read model,
 * so a share just given is listed at once). Who has access is itself access information: only those
 * who may change the shares (`manage`) may list them.
 */
export function listShares(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParamsSchema, req.params, 'path');
    const caller = await commandCaller(deps, req);
    const what = `portal item ${id}`;
    const object = requireFound(await loadObject(deps.eventStore, id), what);
    const placement = await placementOf(deps.eventStore, object);
    requireAccessTo(caller, placement, 'manage', what);
    // Deleted, itself or with an ancestor: like every read, 404.
    if (placement.deleted) requireFound(null, what);
    const answer: ShareList = { shares: [...sharesOf(object)] };
    res.setHeader('ETag', etagOf(object.revision));
    res.json(answer);
  };
}
