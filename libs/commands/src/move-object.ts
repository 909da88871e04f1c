import {
  DomainError,
  decide,
  isAdminOf,
  widensAccess,
  type Caller,
  type EventMetadata,
  type PortalObjectEvent,
} from '@portal/domain';
import type { CommandContext } from './command-context.js';
import {
  loadObject,
  lookupParent,
  placementOf,
  type FoundParent,
  type LoadedObject,
  type Placement,
} from './object-repository.js';
import { requireRevision } from './handler/expected-revision.js';
import { requireAccessTo, requireFound, requireMoveTarget } from './object-permissions.js';
import { runStructureChange, type StructureResult } from './structure/run-structure-change.js';

export interface MoveRequest {
  readonly id: string;
  readonly toParentId: string | null;
  readonly caller: Caller;
  /** `If-Match`: the object's revision the caller last read. */
  readonly expectedRevision?: bigint;
  readonly metadata: EventMetadata;
}

export interface MoveResult extends StructureResult {
  /** The object as it was before the move. */
  readonly object: LoadedObject;
}

/**
 * Moves an object (and its subtree) under another parent, or to the root level of its organization.
 * Cheap refusals (unknown, not allowed, no such parent) come before the organization's structure
 * stream is held; every rule is checked again, with the subtree, once it is held.
 */
export async function moveObject(context: CommandContext, request: MoveRequest): Promise<MoveResult> {
  const first = await checkMove(context, request, false);
  const result = await runStructureChange(context, {
    change: { type: 'move', objectId: request.id, toParentId: request.toParentId },
    orgIds: [first.object.state.access.orgId],
    metadata: request.metadata,
    needsTree: true,
    decide: async () => {
      const { object, events } = await checkMove(context, request, true);
      return [{ orgId: object.state.access.orgId, streamId: object.streamId, events }];
    },
  });
  return { ...result, object: first.object };
}

async function checkMove(
  context: CommandContext,
  request: MoveRequest,
  withSubtree: boolean,
): Promise<{ object: LoadedObject; events: PortalObjectEvent[] }> {
  const { id, toParentId, caller } = request;
  const what = `portal item ${id}`;
  const object = requireFound(await loadObject(context.store, id), what);
  const placement = await placementOf(context.store, object);
  requireAccessTo(caller, placement, 'edit', what);
  requireRevision(request.expectedRevision, object.revision);
  const parent = toParentId === null ? null : await lookupParent(context.store, toParentId);
  // A deleted object is refused by the decider as gone, before any rule about where it would go.
  if (!placement.deleted && object.state.status === 'live') {
    const { access, parentId } = object.state;
    requireMoveTarget(caller, { what, orgId: access.orgId, parentId }, parent);
    if (withSubtree && parentId !== toParentId) {
      await requireMoveKeepsAccess(context, caller, object, placement, parent);
    }
  }
  const subtreeHeight = withSubtree ? await context.tree.subtreeHeight(id) : 0;
  const events = decide(
    {
      type: 'MovePortalObject',
      data: { id, parent: parent?.lookup ?? null, subtreeHeight, ancestorDeleted: placement.ancestorDeleted },
    },
    object.state,
  );
  return { object, events };
}

/**
 * A move must not let more people read or change what moves: shares of the new place reach the moved
 * subtree, and a broader path opens it. When the new place would give anyone a right the old one did
 * not, only an admin of the organization may move it, or the creator of the object and of everything
 * below it (their own work); anyone else is refused, and nothing moves.
 */
async function requireMoveKeepsAccess(
  context: CommandContext,
  caller: Caller,
  object: LoadedObject,
  placement: Placement,
  parent: FoundParent | null,
): Promise<void> {
  if (object.state.status !== 'live' || placement.accessPath === null) return;
  if (parent !== null && parent.accessPath === null) return;
  const { access } = object.state;
  const after = [...(parent?.accessPath ?? []), access];
  if (!widensAccess(placement.accessPath, after)) return;
  if (isAdminOf(caller, access.orgId)) return;
  const ownWork =
    caller.userId !== null &&
    access.createdBy === caller.userId &&
    !(await context.tree.subtreeHasObjectNotCreatedBy(object.id, caller.userId));
  if (ownWork) return;
  throw new DomainError(
    'FORBIDDEN',
    `moving portal item ${object.id} there would let more people read or change it; only an admin of its organization, or whoever created it and everything below it, may do that`,
  );
}
