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
import { withConsistentRefusals } from './consistent-refusal.js';
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
 * Refusals that need nothing of the subtree come before the organization's structure stream is held;
 * every rule is checked again, with the subtree, once it is held. Either way in the order of
 * docs/identity.md: the caller's rights, then a widening of access, then the tree's rules.
 */
export async function moveObject(context: CommandContext, request: MoveRequest): Promise<MoveResult> {
  const first = await withConsistentRefusals(context, (reading) => checkMove(reading, request, false));
  const result = await runStructureChange(context, {
    change: { type: 'move', objectId: request.id, toParentId: request.toParentId },
    orgIds: [first.object.state.access.orgId],
    metadata: request.metadata,
    needsTree: true,
    decide: async () => {
      const { object, events } = await withConsistentRefusals(context, (reading) =>
        checkMove(reading, request, true),
      );
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
    if (parentId !== toParentId) {
      const verdict = await requireMoveKeepsAccess(context, {
        caller,
        object,
        placement,
        parent,
        withSubtree,
      });
      // Whether the mover made all that moves is known only with the subtree; the tree's rules come after.
      if (verdict === 'needs the subtree') return { object, events: [] };
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
  if (withSubtree && events.length > 0) await requireNameFree(context, object, toParentId);
  return { object, events };
}

/**
 * An item named by its STAC client moves only where no live item holds its name (docs/stac.md, "Item
 * ids"): its path there would answer the other one. Checked with the subtree, once the organization's
 * structure stream is held and the read model has caught up, so two moves of one name cannot both pass.
 */
async function requireNameFree(
  context: CommandContext,
  object: LoadedObject,
  toParentId: string | null,
): Promise<void> {
  const { state } = object;
  if (state.status !== 'live' || state.kind !== 'item' || state.stacId === null || toParentId === null)
    return;
  if ((await context.tree.liveItemsNamed(toParentId, state.stacId)).length > 0) {
    throw new DomainError(
      'ALREADY_EXISTS',
      `item ${state.stacId} is already in ${toParentId}: an item named as it cannot move there`,
    );
  }
}

/**
 * A move must not let more people read or change what moves: shares of the new place reach the moved
 * subtree, and a broader path opens it. When the new place would give anyone a right the old one did
 * not, only an admin of the organization may move it, or the creator of the object and of everything
 * below it (their own work); anyone else is refused, and nothing moves. Without the subtree
 * (`withSubtree` false) the creator's case stays open: `needs the subtree`.
 */
async function requireMoveKeepsAccess(
  context: CommandContext,
  move: {
    readonly caller: Caller;
    readonly object: LoadedObject;
    readonly placement: Placement;
    readonly parent: FoundParent | null;
    readonly withSubtree: boolean;
  },
): Promise<'kept' | 'may widen' | 'needs the subtree'> {
  const { caller, object, placement, parent } = move;
  if (object.state.status !== 'live' || placement.accessPath === null) return 'kept';
  if (parent !== null && parent.accessPath === null) return 'kept';
  const { access } = object.state;
  const after = [...(parent?.accessPath ?? []), access];
  if (!widensAccess(placement.accessPath, after)) return 'kept';
  if (isAdminOf(caller, access.orgId)) return 'may widen';
  if (caller.userId !== null && access.createdBy === caller.userId) {
    if (!move.withSubtree) return 'needs the subtree';
    if (!(await context.tree.subtreeHasObjectNotCreatedBy(object.id, caller.userId))) return 'may widen';
  }
  throw new DomainError(
    'FORBIDDEN',
    `moving portal item ${object.id} there would let more people read or change it; only an admin of its organization, or whoever created it and everything below it, may do that`,
  );
}
