import { slugify, type RecordedEvent } from '@portal/domain';
import type { Footprint } from '@portal/read-model-core';
import { asPortalObjectEvent } from './events.js';
import { siblingGroupOf } from './sibling-group.js';

/** The key of an object's row: what updates, uploads and assets change. */
export const objectRow = (id: string): string => `portal_objects:${id}`;

/**
 * The key of an object's place in the tree, its access and its tombstone: what a create reads of its
 * parent, and what moves and deletes change. A create does not change its own (the run places it).
 */
export const placementOf = (id: string): string => `placement:${id}`;

/** A create changes its own row, reads its parent's place and takes a slug among its siblings. */
export function createdFootprint(data: {
  readonly id: string;
  readonly parentId: string | null;
  readonly orgId: string | null;
  readonly title: string;
}): Footprint {
  const { id, parentId, orgId, title } = data;
  return {
    changes: [objectRow(id)],
    reads: parentId === null ? [] : [placementOf(parentId)],
    slugs: [{ group: siblingGroupOf(parentId, orgId), base: slugify(title) }],
  };
}

/**
 * What a portal object event touches in a run, from the event alone, or `null` for the events that
 * go alone: moves, deletes, access changes (they rewrite a subtree) and title changes (they take a
 * slug). The batch's footprints (batch-footprints.ts) let renames, and moves and deletes of objects
 * with nothing below them, join runs too.
 *
 * A create changes its own row and takes a slug among its siblings. It also reads its parent's place, inherited
 * access and tombstone, which nothing in a run changes (a parent created in the run is placed before
 * its children, run-creates.ts), and adds to the parent's child count (an item registered by href,
 * ready at once, widens its extent too); the other events of a run change their object's row only, and
 * widen its parent's extent, or, for an item's metadata, have it recomputed from the parent's ready
 * items once the run's rows are written. Those commute with everything else a run may do to a parent
 * row: extents are always those of the parent's ready items, so widening and recomputing in any order
 * give the extent event order gives.
 */
export function portalObjectFootprint(recorded: RecordedEvent): Footprint | null {
  const event = asPortalObjectEvent(recorded);
  if (!event) return {};
  switch (event.type) {
    case 'CatalogCreated':
    case 'CollectionCreated':
    case 'ItemUploadStarted':
    case 'ItemRegistered':
      return createdFootprint(event.data);
    case 'PortalObjectUpdated':
      // A title takes a slug. An item's metadata has its parent's extent recomputed over the parent's
      // ready items after the run's other statements (run-updates.ts), which gives what event order gives.
      return event.data.changes.title === undefined ? { changes: [objectRow(event.data.id)] } : null;
    case 'UploadCompletionRequested':
    case 'UploadCompleted':
    case 'UploadFailed':
    case 'UploadAborted':
    case 'UploadExpired':
      return { changes: [objectRow(event.data.id)] };
    case 'AssetAttached':
      return { changes: [objectRow(event.data.id), `assets:${event.data.asset.id}`] };
    case 'PortalObjectMoved':
    case 'PortalObjectDeleted':
    case 'VisibilityChanged':
    case 'ObjectShared':
    case 'ObjectUnshared':
      return null;
    default:
      return exhausted(event);
  }
}

function exhausted(event: never): never {
  throw new Error(`unhandled portal object event ${JSON.stringify(event)}`);
}
