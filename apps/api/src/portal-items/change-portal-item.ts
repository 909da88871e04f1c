import type { RequestHandler } from 'express';
import {
  deletePortalItemQuerySchema,
  movePortalItemBodySchema,
  updatePortalItemBodySchema,
} from '@portal/contracts';
import { moveObject } from '@portal/commands';
import type { ApiDependencies } from '../dependencies.js';
import { changeHandler } from '../commands/change-handler.js';
import { commandCaller } from '../commands/command-caller.js';
import { commandContextOf } from '../commands/command-context.js';
import { deleteOneAndRespond } from '../commands/delete-one.js';
import { respondToCommand } from '../commands/respond.js';
import { metadataOf } from '../commands/metadata.js';
import { expectedRevisionFrom } from '../http/consistency.js';
import { idParamsSchema } from '../http/params.js';
import { parseInput } from '../http/validate.js';
import { updateCommandOf } from './update-command.js';

const changedObject = (id: string) => ({ status: 200, body: { portalItemId: id } });

export function updatePortalItem(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, {
    parse: (req) => parseInput(updatePortalItemBodySchema, req.body, 'update'),
    action: 'edit',
    command: (body, { object, placement }) =>
      updateCommandOf(object, body, placement.ancestorDeleted, deps.newId),
    answer: (_changes, object) => changedObject(object.id),
  });
}

/**
 * `POST …/{id}/move`: the rules (docs/identity.md, docs/decisions.md "Cross-stream invariants") are the
 * command library's; a move runs as one structure operation of the object's organization, so two
 * moves can never close a cycle between them.
 */
export function movePortalItem(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParamsSchema, req.params, 'path');
    const { parentId } = parseInput(movePortalItemBodySchema, req.body, 'move');
    const expectedRevision = expectedRevisionFrom(req);
    const caller = await commandCaller(deps, req);
    const result = await moveObject(commandContextOf(deps), {
      id,
      toParentId: parentId,
      caller,
      metadata: metadataOf(req, deps.now()),
      ...(expectedRevision === undefined ? {} : { expectedRevision }),
    });
    const { object } = result;
    const revision = result.revisions.get(object.streamId) ?? object.revision;
    await respondToCommand(deps, req, res, { position: result.position, revision }, changedObject(id));
  };
}

/**
 * `DELETE …/{id}`: a container's subtree goes with it only with `recursive=true`, and only if the caller
 * may change everything in it (or is an admin of its organization).
 */
export function deletePortalItem(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParamsSchema, req.params, 'path');
    const { recursive } = parseInput(deletePortalItemQuerySchema, req.query, 'query');
    const caller = await commandCaller(deps, req);
    await deleteOneAndRespond(deps, req, res, { id, caller, recursive });
  };
}
