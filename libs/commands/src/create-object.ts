import {
  DomainError,
  MAX_DEPTH,
  portalObjectDecider,
  streamIdOf,
  type Caller,
  type EventMetadata,
  type PortalKind,
  widensAccess,
} from '@portal/domain';
import type { CommandContext } from './command-context.js';
import { withConsistentRefusals } from './consistent-refusal.js';
import { handleCommand } from './handler/handle-command.js';
import { rememberKind } from './known-kinds.js';
import { loadObject, lookupParent, type FoundParent } from './object-repository.js';
import { requireCreateRights } from './object-permissions.js';
import { confirmCreate, watchStructure, type StructureWatch } from './structure/confirm-create.js';

/** Where a new object goes, read for its rules; `watch` is how a create later confirms it. */
export interface CreatePlacement {
  readonly parent: FoundParent | null;
  readonly watch: StructureWatch | null;
}

/**
 * Reads the new object's parent and ancestors from the event store. The organization's structure
 * stream is looked at first, so any move or delete that could change what was read here shows up in
 * its tail afterwards (`confirmCreated`). Root-level objects have nothing to watch.
 */
export async function prepareCreate(
  context: CommandContext,
  parentId: string | null,
): Promise<CreatePlacement> {
  if (parentId === null) return { parent: null, watch: null };
  const orgId = await context.organizations.organizationOf(context.store, parentId);
  const watch = orgId === undefined ? null : await watchStructure(context, orgId);
  return { parent: await lookupParent(context.store, parentId), watch };
}

export interface CreatedObject {
  readonly id: string;
  readonly kind: PortalKind;
  readonly streamId: string;
}

/**
 * After the create's own append: refuses it when its parent or an ancestor was deleted in a race (the
 * object is buried with them), and when a move of an ancestor in a race put it deeper than the tree
 * allows or where more people may see it (then it buries the object itself). Nothing to do in the
 * usual case but one read.
 */
export async function confirmCreated(
  context: CommandContext,
  placement: CreatePlacement,
  created: CreatedObject,
  metadata: EventMetadata,
): Promise<void> {
  const [refusal] = await confirmCreatedTogether(context, placement, [{ created, metadata }]);
  if (refusal) throw refusal;
}

/** One object of `confirmCreatedTogether`, with the metadata of the events that would bury it. */
export interface CreatedWith {
  readonly created: CreatedObject;
  readonly metadata: EventMetadata;
}

/**
 * `confirmCreated` for several objects created under one placement (one parent): the structure
 * stream's tail is read once for all of them. Returns each object's refusal (`undefined`: it stands),
 * in the order given.
 */
export async function confirmCreatedTogether(
  context: CommandContext,
  placement: CreatePlacement,
  objects: readonly CreatedWith[],
): Promise<readonly (Error | undefined)[]> {
  const { parent, watch } = placement;
  const refusals: (Error | undefined)[] = objects.map(() => undefined);
  const first = objects[0];
  if (!watch || !parent?.lookup.found || !first) return refusals;
  const lineage = [...parent.lookup.ancestorIds, parent.lookup.id];
  try {
    await confirmCreate(context, watch, lineage, first.metadata, async () => {
      const now = await lookupParent(context.store, parent.lookup.id);
      if (!now.lookup.found) return;
      for (const [index, { created, metadata }] of objects.entries()) {
        refusals[index] = await refusalAfterMove(context, created, metadata, parent, now).catch(
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        );
      }
    });
  } catch (error) {
    // A delete of the lineage (or a failure to find out) refuses every object of the placement alike.
    return objects.map(() => (error instanceof Error ? error : new Error(String(error))));
  }
  return refusals;
}

/** After a move of an ancestor raced the create: the refusal (the object buried), or `undefined`. */
async function refusalAfterMove(
  context: CommandContext,
  created: CreatedObject,
  metadata: EventMetadata,
  before: FoundParent,
  now: FoundParent,
): Promise<Error | undefined> {
  if (!now.lookup.found) return undefined;
  if (now.lookup.depth + 1 > MAX_DEPTH) {
    await bury(context, created, metadata);
    return new DomainError(
      'DEPTH_EXCEEDED',
      `${created.kind} ${created.id}: an ancestor was moved while it was being created, and it would sit at depth ${now.lookup.depth + 1}; the maximum depth is ${MAX_DEPTH}. Nothing was created`,
    );
  }
  if (await movedIntoWiderAccess(context, created, before, now)) {
    await bury(context, created, metadata);
    return new DomainError(
      'CONCURRENCY_CONFLICT',
      `${created.kind} ${created.id}: an ancestor was moved while it was being created, to a place more people may see; nothing was created, create it again if it belongs there`,
    );
  }
  return undefined;
}

/**
 * A move checks that it widens no one's access to what it moves, but a move that decided before this
 * object existed did not see it: if the new place gives anyone a right the old one did not, the
 * creator did not choose that, and the create is taken back.
 */
async function movedIntoWiderAccess(
  context: CommandContext,
  created: CreatedObject,
  before: FoundParent,
  after: FoundParent,
): Promise<boolean> {
  const object = await loadObject(context.store, created.id, [created.kind]);
  if (object?.state.status !== 'live' || !before.accessPath || !after.accessPath) return false;
  const own = object.state.access;
  return widensAccess([...before.accessPath, own], [...after.accessPath, own]);
}

/**
 * Takes a create back with a delete of the new object alone (nothing can be below it that a move or
 * delete did not see). One deleted meanwhile by its own delete is buried already.
 */
async function bury(context: CommandContext, created: CreatedObject, metadata: EventMetadata): Promise<void> {
  const { id } = created;
  await handleCommand(context, {
    streamId: created.streamId,
    decider: portalObjectDecider,
    command: {
      type: 'DeletePortalObject',
      data: { id, recursive: false, hasChildren: false, ancestorDeleted: false },
    },
    metadata,
  }).catch((error: unknown) => {
    if (!(error instanceof DomainError && error.code === 'NOT_FOUND')) throw error;
  });
}

export interface CreateRequest {
  readonly kind: PortalKind;
  readonly parentId: string | null;
  readonly caller: Caller;
  readonly metadata: EventMetadata;
}

/**
 * The frame of every create: read the parent (and where the organization's structure stream stood),
 * check the caller may create there, let `make` decide and append, then confirm that no delete or move
 * of the parent or an ancestor raced it (docs/decisions.md, "Cross-stream invariants").
 */
export async function createObject<Made extends { readonly id: string }>(
  context: CommandContext,
  request: CreateRequest,
  make: (parent: FoundParent | null) => Promise<Made>,
): Promise<Made> {
  const { kind, parentId, caller, metadata } = request;
  const placement = await withConsistentRefusals(context, async (reading) => {
    const prepared = await prepareCreate(reading, parentId);
    requireCreateRights(caller, kind, prepared.parent);
    return prepared;
  });
  const made = await make(placement.parent);
  const created = { id: made.id, kind, streamId: streamIdOf(kind, made.id) };
  await confirmCreated(context, placement, created, metadata);
  rememberKind(made.id, kind);
  return made;
}
