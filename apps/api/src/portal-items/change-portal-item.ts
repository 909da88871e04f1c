import type { Request, RequestHandler } from 'express';
import {
  deletePortalItemQuerySchema,
  movePortalItemBodySchema,
  updatePortalItemBodySchema,
} from '@portal/contracts';
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
import { idParamsSchema } from '../http/params.js';
import { parseInput } from '../http/validate.js';
import { findLiveObject, subtreeHeight } from '../read-model/portal-object-rows.js';

/**
 * One change to an existing object: `parse` validates the request before anything is read (a bad body
 * is a 400 whatever the id), `command` builds the domain command from the object as its stream has it.
 */
interface Change<Input> {
  readonly parse: (req: Request) => Input;
  /** Runs once before the load-decide-append cycle, e.g. to let the read model catch up. */
  readonly prepare?: () => Promise<void>;
  readonly command: (input: Input, object: LoadedObject) => Promise<PortalObjectCommand>;
  readonly answer: (id: string) => unknown;
}

function changeHandler<Input>(deps: ApiDependencies, change: Change<Input>): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParamsSchema, req.params, 'path');
    const input = change.parse(req);
    const ifMatch = expectedRevisionFrom(req);
    await change.prepare?.();
    const outcome = await withOptimisticRetry(ifMatch, async () => {
      const object = requireFound(await loadObject(deps.eventStore, id), `portal item ${id}`);
      assertRevision(ifMatch, object.revision);
      const events = decide(await change.command(input, object), object.state);
      return appendDecision(deps, req, object.streamId, events, {
        expectedRevision: object.revision,
        currentRevision: object.revision,
      });
    });
    await respondToCommand(deps, req, res, outcome, { status: 200, body: change.answer(id) });
  };
}

const changedObject = (id: string) => ({ portalItemId: id });

export function updatePortalItem(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, {
    parse: (req) => parseInput(updatePortalItemBodySchema, req.body, 'update'),
    command: async (changes, object) => ({
      type: 'UpdatePortalObject',
      data: { id: object.id, changes, ancestorDeleted: await isAncestorDeleted(deps.eventStore, object) },
    }),
    answer: changedObject,
  });
}

export function movePortalItem(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, {
    parse: (req) => parseInput(movePortalItemBodySchema, req.body, 'move'),
    // The subtree's height comes from the tree read model, which must include every earlier write.
    prepare: () => awaitReadModelFreshness(deps),
    command: async ({ parentId }, object) => {
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
    },
    answer: changedObject,
  });
}

export function deletePortalItem(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, {
    parse: (req) => parseInput(deletePortalItemQuerySchema, req.query, 'query'),
    // Whether the object has children comes from the tree read model: it must include every earlier write.
    prepare: () => awaitReadModelFreshness(deps),
    command: async ({ recursive }, object) => {
      const [row, ancestorDeleted] = await Promise.all([
        findLiveObject(deps.pool, object.id),
        isAncestorDeleted(deps.eventStore, object),
      ]);
      return {
        type: 'DeletePortalObject',
        data: { id: object.id, recursive, hasChildren: (row?.child_count ?? 0) > 0, ancestorDeleted },
      };
    },
    answer: (id) => ({ deleted: [id] }),
  });
}
