import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';
import { createdAccess, decideAccess } from './access-decider.js';
import { checkFieldsApply, diffChanges } from './changes.js';
import type {
  CreateCatalog,
  CreateCollection,
  DeletePortalObject,
  MovePortalObject,
  PortalObjectCommand,
  UpdatePortalObject,
} from './commands.js';
import type { PortalObjectChanges, PortalObjectEvent } from './events.js';
import { checkPlacement } from './hierarchy.js';
import { applyHrefAssetPatch, checkHrefAssets, withStableAssetIds } from './href-assets.js';
import type { ItemCommand } from './item-commands.js';
import { decideItem } from './item-decider.js';
import { requireLive } from './require-live.js';
import { evolve, initialState, type LivePortalObject, type PortalObjectState } from './state.js';
import { unreachable } from './unreachable.js';

/** Collection fields a create may leave out. The extent stays `null` so the projector computes it. */
export const collectionDefaults = {
  license: 'other',
  keywords: [] as readonly string[],
  extent: null,
} as const;

/**
 * Decides what a command means for one portal object's stream: the events to append (none for a no-op),
 * or a `DomainError` naming the broken rule. Pure: whatever the rules need to know about other streams
 * (the parent, the subtree, tombstones above) arrives in the command.
 */
export function decide(
  command: PortalObjectCommand | ItemCommand,
  state: PortalObjectState,
): PortalObjectEvent[] {
  switch (command.type) {
    case 'CreateCatalog':
      return createCatalog(command, state);
    case 'CreateCollection':
      return createCollection(command, state);
    case 'UpdatePortalObject':
      return update(command, state);
    case 'MovePortalObject':
      return move(command, state);
    case 'DeletePortalObject':
      return remove(command, state);
    case 'ChangeVisibility':
    case 'ShareObject':
    case 'UnshareObject':
      return decideAccess(command, state);
    case 'CreateItem':
    case 'RegisterItem':
    case 'RequestUploadCompletion':
    case 'AttachUploadedAsset':
    case 'FailUpload':
    case 'AbortUpload':
    case 'ExpireUpload':
      return decideItem(command, state);
    default:
      return unreachable(command);
  }
}

/** Every portal object's stream (catalog, collection or item) for the command handler. */
export const portalObjectDecider: Decider<
  PortalObjectCommand | ItemCommand,
  PortalObjectEvent,
  PortalObjectState
> = { decide, evolve, initialState };

function createCatalog({ data }: CreateCatalog, state: PortalObjectState): PortalObjectEvent[] {
  requireAbsent(data.id, state);
  checkPlacement({ id: data.id, kind: 'catalog', parent: data.parent, subtreeHeight: 0 });
  const { id, title, description, links } = data;
  const parentId = data.parent?.id ?? null;
  return [
    {
      type: 'CatalogCreated',
      data: { id, title, description, parentId, links, ...createdAccess(data.access, data.parent) },
    },
  ];
}

function createCollection({ data }: CreateCollection, state: PortalObjectState): PortalObjectEvent[] {
  requireAbsent(data.id, state);
  checkPlacement({ id: data.id, kind: 'collection', parent: data.parent, subtreeHeight: 0 });
  const { id, title, description, links } = data;
  return [
    {
      type: 'CollectionCreated',
      data: {
        id,
        title,
        description,
        parentId: data.parent?.id ?? null,
        links,
        license: data.license ?? collectionDefaults.license,
        keywords: data.keywords ?? collectionDefaults.keywords,
        extent: data.extent ?? collectionDefaults.extent,
        ...(data.stacId !== undefined && { stacId: data.stacId }),
        ...createdAccess(data.access, data.parent),
      },
    },
  ];
}

function update({ data }: UpdatePortalObject, state: PortalObjectState): PortalObjectEvent[] {
  const object = requireLive(data.id, state, data.ancestorDeleted);
  checkFieldsApply(object.id, object.kind, data.changes);
  const diff = diffChanges(object, withAssetChanges(object, data));
  if (diff === null) return [];
  return [{ type: 'PortalObjectUpdated', data: { id: object.id, kind: object.kind, ...diff } }];
}

/**
 * The requested changes with the item's whole new asset list, from a patch or a replacement, checked.
 * A key the item keeps keeps its asset id, so clients and history follow one asset across replacements.
 */
function withAssetChanges(object: LivePortalObject, data: UpdatePortalObject['data']): PortalObjectChanges {
  const { changes, assetPatch } = data;
  if (assetPatch === undefined && changes.assets === undefined) return changes;
  if (object.kind !== 'item') {
    throw new DomainError('INVALID_COMMAND', `${object.kind} ${object.id}: assets apply to items only`);
  }
  if (assetPatch !== undefined && changes.assets !== undefined) {
    throw new Error('an update gives either an asset patch or a whole asset list, not both');
  }
  const assets =
    assetPatch === undefined
      ? withStableAssetIds(object.hrefAssets, changes.assets ?? [])
      : applyHrefAssetPatch(object.hrefAssets, assetPatch);
  checkHrefAssets(object.id, assets);
  return { ...changes, assets };
}

function move({ data }: MovePortalObject, state: PortalObjectState): PortalObjectEvent[] {
  const object = requireLive(data.id, state, data.ancestorDeleted);
  const toParentId = data.parent?.id ?? null;
  if (toParentId === object.parentId) return [];
  checkPlacement({
    id: object.id,
    kind: object.kind,
    parent: data.parent,
    subtreeHeight: data.subtreeHeight,
  });
  // Objects never change organization: their history, members' rights and API keys all hang on it.
  if (data.parent?.found === true && data.parent.orgId !== object.access.orgId) {
    throw new DomainError(
      'ORGANIZATION_MISMATCH',
      `${object.kind} ${object.id} cannot move under parent ${data.parent.id}: it belongs to another organization`,
    );
  }
  return [
    {
      type: 'PortalObjectMoved',
      data: { id: object.id, kind: object.kind, fromParentId: object.parentId, toParentId },
    },
  ];
}

function remove({ data }: DeletePortalObject, state: PortalObjectState): PortalObjectEvent[] {
  const object = requireLive(data.id, state, data.ancestorDeleted);
  if (data.hasChildren && !data.recursive) {
    throw new DomainError(
      'NOT_EMPTY',
      `${object.kind} ${object.id} still has children; delete them first or delete recursively`,
    );
  }
  return [
    { type: 'PortalObjectDeleted', data: { id: object.id, kind: object.kind, recursive: data.recursive } },
  ];
}

/** Ids are never reused, not even after a delete: the tombstoned stream keeps its history. */
function requireAbsent(id: string, state: PortalObjectState): void {
  if (state.status === 'absent') return;
  const was = state.status === 'deleted' ? ' (deleted, and ids are never reused)' : '';
  throw new DomainError('ALREADY_EXISTS', `${state.kind} ${id} already exists${was}`);
}
