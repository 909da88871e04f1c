import type { Request, RequestHandler } from 'express';
import {
  movePortalItemBodySchema,
  updatePortalItemBodySchema,
  deletePortalItemQuerySchema,
} from '@portal/contracts';
import { idParamsSchema } from '../http/params.js';
import { decide, type PortalObjectCommand } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import {
  appendDecision,
  assertRevision,
  requireFound,
  respondToCommand,
  withOptimisticRetry,
} from '../commands/execute.js';
import {
  isAncestorDeleted,
  loadObject,
  lookupParent,
  type LoadedObject,
} from '../commands/portal-object-repository.js';
import { awaitReadModelFreshness } from '../commands/read-model-freshness.js';
import { expectedRevisionFrom } from '../http/consistency.js';
import { parseInput } from '../http/validate.js';
import { findLiveObject, subtreeHeight } from '../read-model/portal-object-rows.js';

/**
 * Load the object from its stream, let the caller build the command from it, decide, append with the
 * revision that was read. Shared by update, move and delete, which differ only in the command.
 */
function changeHandler(
  deps: ApiDependencies,
  answer: (id: string) => unknown,
  buildCommand: (req: Request, object: LoadedObject) => Promise<PortalObjectCommand>,
): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParamsSchema, req.params, 'path');
    const ifMatch = expectedRevisionFrom(req);
    const outcome = await withOptimisticRetry(ifMatch, async () => {
      const object = requireFound(await loadObject(deps.eventStore, id), `portal item ${id}`);
      assertRevision(ifMatch, object.revision);
      const events = decide(await buildCommand(req, object), object.state);
      return appendDecision(deps, req, object.streamId, events, {
        expectedRevision: object.revision,
        currentRevision: object.revision,
      });
    });
    await respondToCommand(deps, req, res, outcome, { status: 200, body: answer(id) });
  };
}

const changedObject = (id: string) => ({ portalItemId: id });

export function updatePortalItem(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, changedObject, async (req, object) => {
    const changes = parseInput(updatePortalItemBodySchema, req.body, 'update');
    return {
      type: 'UpdatePortalObject',
      data: { id: object.id, changes, ancestorDeleted: await isAncestorDeleted(deps.eventStore, object) },
    };
  });
}

export function movePortalItem(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, changedObject, async (req, object) => {
    const { parentId } = parseInput(movePortalItemBodySchema, req.body, 'move');
    await awaitReadModelFreshness(deps);
    const [parent, ancestorDeleted, row] = await Promise.all([
      parentId === null ? null : lookupParent(deps.eventStore, parentId),
      isAncestorDeleted(deps.eventStore, object),
      findLiveObject(deps.pool, object.id),
    ]);
    return {
      type: 'MovePortalObject',
      data: {
        id: object.id,
        parent,
        subtreeHeight: row ? await subtreeHeight(deps.pool, object.id, row.depth) : 0,
        ancestorDeleted,
      },
    };
  });
}

export function deletePortalItem(deps: ApiDependencies): RequestHandler {
  return changeHandler(
    deps,
    (id) => ({ deleted: [id] }),
    async (req, object) => {
      const { recursive } = parseInput(deletePortalItemQuerySchema, req.query, 'query');
      await awaitReadModelFreshness(deps);
      const [row, ancestorDeleted] = await Promise.all([
        findLiveObject(deps.pool, object.id),
        isAncestorDeleted(deps.eventStore, object),
      ]);
      return {
        type: 'DeletePortalObject',
        data: { id: object.id, recursive, hasChildren: (row?.child_count ?? 0) > 0, ancestorDeleted },
      };
    },
  );
}
