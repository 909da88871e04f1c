import type { BrowserNode, ChangeEvent } from '@portal/contracts';
import type { ChildrenQuery } from '../api/endpoints.js';

/** Events that can bring an object into a list it was not in: it was made, moved, or opened to the caller. */
const MAY_ARRIVE: ReadonlySet<string> = new Set([
  'CatalogCreated',
  'CollectionCreated',
  'ItemUploadStarted',
  'ItemRegistered',
  'PortalObjectMoved',
  'VisibilityChanged',
  'ObjectShared',
]);

/** More unknown objects than this in one burst (a bulk load): reading the page again is cheaper. */
export const MAX_LOOKUPS = 50;

export interface LivePlan {
  /** The node the page is about changed (its header, its details): read it again. */
  readonly refreshNode: boolean;
  /** The node itself was deleted. */
  readonly nodeDeleted: boolean;
  /** Rows to drop without asking: deleted. */
  readonly remove: readonly string[];
  /** Objects to read, then place or drop by where they now are. */
  readonly lookUp: readonly string[];
  /** Too much changed: read the whole view again. */
  readonly reload: boolean;
}

/**
 * What a burst of change events means for the view of `node` (null: the root level) showing
 * `shownIds`. Pure: unit-tested in live-plan.unit.test.ts.
 */
export function planLiveUpdate(
  changes: readonly ChangeEvent[],
  node: { readonly id: string } | null,
  shownIds: ReadonlySet<string>,
): LivePlan {
  let refreshNode = false;
  let nodeDeleted = false;
  const remove = new Set<string>();
  const lookUp = new Set<string>();
  for (const change of changes) {
    const deleted = change.type === 'PortalObjectDeleted';
    if (node !== null && change.objectId === node.id) {
      if (deleted) nodeDeleted = true;
      else refreshNode = true;
      continue;
    }
    if (shownIds.has(change.objectId)) {
      if (deleted) {
        remove.add(change.objectId);
        lookUp.delete(change.objectId);
      } else if (!remove.has(change.objectId)) lookUp.add(change.objectId);
      refreshNode = true;
    } else if (MAY_ARRIVE.has(change.type)) {
      lookUp.add(change.objectId);
      refreshNode = true;
    }
  }
  const reload = lookUp.size > MAX_LOOKUPS;
  return {
    refreshNode: refreshNode && node !== null,
    nodeDeleted,
    remove: [...remove],
    lookUp: reload ? [] : [...lookUp],
    reload,
  };
}

/** Whether a node belongs in the list of `parentId`'s children (null: the root level) under `query`. */
export function belongsIn(child: BrowserNode, parentId: string | null, query: ChildrenQuery | null): boolean {
  if (child.parentId !== parentId) return false;
  if (query === null) return true;
  if (query.kind.length > 0 && !query.kind.includes(child.kind)) return false;
  if (query.status.length > 0 && !query.status.includes(child.status)) return false;
  return true;
}
