import type { RequestHandler } from 'express';
import {
  deletePortalItemQuerySchema,
  movePortalItemBodySchema,
  updatePortalItemBodySchema,
} from '@portal/contracts';
import type { ApiDependencies } from '../dependencies.js';
import { changeHandler } from '../commands/change-handler.js';
import { requireMoveTarget } from '../commands/object-permissions.js';
import { lookupParent } from '../commands/portal-object-repository.js';
import { awaitReadModelFreshness } from '../commands/read-model-freshness.js';
import { parseInput } from '../http/validate.js';
import { findLiveObject, subtreeHeight } from '../read-model/portal-object-rows.js';

const changedObject = (id: string) => ({ status: 200, body: { portalItemId: id } });

export function updatePortalItem(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, {
    parse: (req) => parseInput(updatePortalItemBodySchema, req.body, 'update'),
    action: 'edit',
    command: (changes, { object, placement }) => ({
      type: 'UpdatePortalObject',
      data: { id: object.id, changes, ancestorDeleted: placement.ancestorDeleted },
    }),
    answer: (_changes, object) => changedObject(object.id),
  });
}

/**
 * A move needs edit rights on the object and on the new parent (or, to the root level, the editor role
 * in the object's organization); a parent of another organization is refused by the decider (409
 * `ORGANIZATION_MISMATCH`).
 */
export function movePortalItem(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, {
    parse: (req) => parseInput(movePortalItemBodySchema, req.body, 'move'),
    // The subtree's height comes from the tree read model, which must include every earlier write.
    prepare: () => awaitReadModelFreshness(deps),
    action: 'edit',
    command: async ({ parentId }, { object, placement, caller }) => {
      const [parent, row] = await Promise.all([
        parentId === null ? null : lookupParent(deps.eventStore, parentId),
        findLiveObject(deps.pool, object.id),
      ]);
      // A deleted object (or one below a tombstone) is refused by the decider as gone, before any rule
      // about where it would go.
      if (!placement.deleted && object.state.status === 'live') {
        const { access, parentId: currentParentId } = object.state;
        requireMoveTarget(
          caller,
          { what: `portal item ${object.id}`, orgId: access.orgId, parentId: currentParentId },
          parent,
        );
      }
      return {
        type: 'MovePortalObject',
        data: {
          id: object.id,
          parent: parent?.lookup ?? null,
          subtreeHeight: row ? await subtreeHeight(deps.pool, object.id, row.depth) : 0,
          ancestorDeleted: placement.ancestorDeleted,
        },
      };
    },
    answer: (_input, object) => changedObject(object.id),
  });
}

/**
 * Edit rights on the object cover everything below it: a recursive delete takes the whole subtree,
 * descendants the caller could not see on their own included (they all belong to the same organization).
 */
export function deletePortalItem(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, {
    parse: (req) => parseInput(deletePortalItemQuerySchema, req.query, 'query'),
    // Whether the object has children comes from the tree read model: it must include every earlier write.
    prepare: () => awaitReadModelFreshness(deps),
    action: 'edit',
    command: async ({ recursive }, { object, placement }) => {
      const row = await findLiveObject(deps.pool, object.id);
      return {
        type: 'DeletePortalObject',
        data: {
          id: object.id,
          recursive,
          hasChildren: (row?.child_count ?? 0) > 0,
          ancestorDeleted: placement.ancestorDeleted,
        },
      };
    },
    answer: (_input, object) => ({ status: 200, body: { deleted: [object.id] } }),
  });
}
