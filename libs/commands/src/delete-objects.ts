import {
  callerPrincipals,
  decide,
  DomainError,
  isAdminOf,
  type Caller,
  type EventMetadata,
  type PortalKind,
  type PortalObjectEvent,
} from '@portal/domain';
import type { CommandContext } from './command-context.js';
import { withConsistentRefusals } from './consistent-refusal.js';
import { loadObject, placementOf, type LoadedObject } from './object-repository.js';
import { requireRevision } from './handler/expected-revision.js';
import { requireAccessTo, requireFound } from './object-permissions.js';
import { runStructureChange, type StructureResult } from './structure/run-structure-change.js';

export interface DeleteRequest {
  /** Every object is checked before any is deleted: one refusal deletes nothing. */
  readonly ids: readonly string[];
  /** The kinds the ids may name (`catalog` only for the catalogs route); any kind by default. */
  readonly kinds?: readonly PortalKind[];
  readonly recursive: boolean;
  readonly caller: Caller;
  /** `If-Match` of a single delete. */
  readonly expectedRevision?: bigint;
  readonly metadata: EventMetadata;
}

export interface DeleteResult extends StructureResult {
  /** The objects as they were before the delete, in the order asked. */
  readonly objects: readonly LoadedObject[];
}

/**
 * Deletes objects, with their subtrees when `recursive`. Runs as one structure operation of their
 * organizations, so a child created or moved in at the same moment is either seen (and the delete
 * refused, or its subtree rights checked) or refused itself; never lost after a success.
 */
export async function deleteObjects(context: CommandContext, request: DeleteRequest): Promise<DeleteResult> {
  const first = await Promise.all(
    request.ids.map((id) =>
      withConsistentRefusals(context, (reading) => checkDelete(reading, request, id, false)),
    ),
  );
  const objects = first.map(({ object }) => object);
  const result = await runStructureChange(context, {
    change: { type: 'delete', objectIds: request.ids, recursive: request.recursive },
    orgIds: objects.map((object) => object.state.access.orgId),
    metadata: request.metadata,
    needsTree: objects.some((object) => object.kind !== 'item'),
    decide: async () => {
      const decisions = [];
      for (const id of request.ids) {
        const { object, events } = await withConsistentRefusals(context, (reading) =>
          checkDelete(reading, request, id, true),
        );
        decisions.push({ orgId: object.state.access.orgId, streamId: object.streamId, events });
      }
      return decisions;
    },
  });
  return { ...result, objects };
}

async function checkDelete(
  context: CommandContext,
  request: DeleteRequest,
  id: string,
  withSubtree: boolean,
): Promise<{ object: LoadedObject; events: PortalObjectEvent[] }> {
  const kinds = request.kinds ?? ['catalog', 'collection', 'item'];
  const what = `${kinds.length === 1 ? (kinds[0] ?? 'portal item') : 'portal item'} ${id}`;
  const object = requireFound(await loadObject(context.store, id, kinds), what);
  const placement = await placementOf(context.store, object);
  requireAccessTo(request.caller, placement, 'edit', what);
  requireRevision(request.expectedRevision, object.revision);
  const live = object.state.status === 'live' && !placement.deleted;
  const childCount =
    withSubtree && live && object.kind !== 'item' ? await context.tree.liveChildCount(id) : 0;
  if (childCount > 0) await requireRightsBelow(context, request.caller, object);
  const events = decide(
    {
      type: 'DeletePortalObject',
      data: {
        id,
        recursive: request.recursive,
        hasChildren: childCount > 0,
        ancestorDeleted: placement.ancestorDeleted,
      },
    },
    object.state,
  );
  return { object, events };
}

/**
 * Deleting a container takes (or, without `recursive`, would have to take) what is below it. A caller
 * who may not change everything below — an editor above another member's private object — is refused
 * with 403, before and in place of "still has children", so the answer neither deletes what they
 * could not see nor tells what it is. An admin of the organization may change all of it.
 */
async function requireRightsBelow(
  context: CommandContext,
  caller: Caller,
  object: LoadedObject,
): Promise<void> {
  const { orgId } = object.state.access;
  if (isAdminOf(caller, orgId)) return;
  if (!(await context.tree.subtreeHasObjectNotEditableBy(object.id, callerPrincipals(caller)))) return;
  throw new DomainError(
    'FORBIDDEN',
    `deleting ${object.kind} ${object.id} needs the right to change everything below it; an admin of its organization can delete it`,
  );
}
