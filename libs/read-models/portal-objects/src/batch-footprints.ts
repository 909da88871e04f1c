import { slugify, type RecordedEvent } from '@portal/domain';
import type { Footprint, FootprintOf, Sql } from '@portal/read-model-core';
import { asPortalObjectEvent } from './events.js';
import { createdFootprint, objectRow, placementOf, portalObjectFootprint } from './run-footprint.js';
import { siblingGroupOf } from './sibling-group.js';

/** What the footprint of a rename, a move or a delete needs to know of its object beyond the event. */
export interface Placement {
  readonly parentId: string | null;
  readonly orgId: string | null;
  /**
   * Bases of the slug family it holds: its slug and its title's `slugify` (a slug always derives from
   * its title, but a buried row keeps the slug it had). Whatever slug it takes next derives from one.
   */
  readonly slugs: readonly string[];
  /** No row (live or tombstone) lies below it: its subtree is its own row. */
  readonly bare: boolean;
}

/** The batch's placements: `$1` the ids (`readPlacements`). */
export const batchPlacementsStatement = {
  name: 'projector_portal_objects_batch_placements',
  text: `
      WITH covered AS MATERIALIZED (SELECT portal_objects_with_rows_below($1::uuid[]) AS id)
      SELECT o.id, o.parent_id, o.org_id, o.slug, o.title, o.id NOT IN (SELECT id FROM covered) AS bare
        FROM portal_objects o WHERE o.id = ANY($1::uuid[])`,
};

/**
 * The placements of the objects the batch renames, moves or deletes without creating them first. One
 * statement per batch that holds such events: the rows by key, and a probe of the ancestors index per
 * object (`portal_objects_with_rows_below`, schema.sql, which keeps it off a scan of the table).
 */
async function readPlacements(sql: Sql, ids: readonly string[]): Promise<Map<string, Placement>> {
  const placements = new Map<string, Placement>();
  if (ids.length === 0) return placements;
  const result = await sql.query<{
    id: string;
    parent_id: string | null;
    org_id: string | null;
    slug: string;
    title: string;
    bare: boolean;
  }>({ ...batchPlacementsStatement, values: [ids] });
  for (const row of result.rows) {
    placements.set(row.id, {
      parentId: row.parent_id,
      orgId: row.org_id,
      slugs: [row.slug, slugify(row.title)],
      bare: row.bare,
    });
  }
  return placements;
}

const createTypes: ReadonlySet<string> = new Set([
  'CatalogCreated',
  'CollectionCreated',
  'ItemUploadStarted',
  'ItemRegistered',
]);

/** Ids of the objects whose renames, moves or deletes need a placement the batch does not create. */
function idsToPlace(events: readonly RecordedEvent[]): string[] {
  const created = new Set<string>();
  const ids = new Set<string>();
  for (const recorded of events) {
    const event = asPortalObjectEvent(recorded);
    if (!event) continue;
    const { id } = event.data;
    if (createTypes.has(event.type)) created.add(id);
    const placed =
      event.type === 'PortalObjectMoved' ||
      event.type === 'PortalObjectDeleted' ||
      (event.type === 'PortalObjectUpdated' && event.data.changes.title !== undefined);
    if (placed && !created.has(id)) ids.add(id);
  }
  return [...ids];
}

/**
 * The footprints of a batch's portal object events, with renames, moves and deletes of objects with
 * nothing below them able to join runs (docs/projection.md, "Lone events in runs"). The placements are
 * read before the batch is applied and followed through it in event order: creates and moves say where
 * each object goes, renames which slug family it holds, and a create or a move below an object means it
 * is no longer bare. Whatever the batch cannot tell (an object it did not read) goes alone, as before.
 */
export async function portalObjectBatchFootprints(
  sql: Sql,
  events: readonly RecordedEvent[],
): Promise<FootprintOf> {
  return followPlacements(await readPlacements(sql, idsToPlace(events)));
}

/** The footprint function over placements read beforehand; asked once per event, in event order. */
export function followPlacements(read: ReadonlyMap<string, Placement>): FootprintOf {
  const placements = new Map(read);
  const coverWith = (id: string | null): void => {
    const parent = id === null ? undefined : placements.get(id);
    if (id !== null && parent) placements.set(id, { ...parent, bare: false });
  };
  return (recorded): Footprint | null => {
    const event = asPortalObjectEvent(recorded);
    if (!event) return portalObjectFootprint(recorded);
    switch (event.type) {
      case 'CatalogCreated':
      case 'CollectionCreated':
      case 'ItemUploadStarted':
      case 'ItemRegistered': {
        const { id, parentId, orgId, title } = event.data;
        placements.set(id, { parentId, orgId, slugs: [slugify(title)], bare: true });
        coverWith(parentId);
        return createdFootprint(event.data);
      }
      case 'PortalObjectUpdated': {
        const { id, changes } = event.data;
        if (changes.title === undefined) return portalObjectFootprint(recorded);
        const placement = placements.get(id);
        if (!placement) return null;
        const base = slugify(changes.title);
        placements.set(id, { ...placement, slugs: [base] });
        const group = siblingGroupOf(placement.parentId, placement.orgId);
        // It frees the slug it held and takes one of its new title's family.
        return {
          changes: [objectRow(id)],
          slugs: [...placement.slugs, base].map((slugBase) => ({ group, base: slugBase })),
        };
      }
      case 'PortalObjectMoved': {
        const { id, toParentId } = event.data;
        const placement = placements.get(id);
        coverWith(toParentId);
        if (!placement) return null;
        placements.set(id, { ...placement, parentId: toParentId });
        if (!placement.bare) return null;
        const from = siblingGroupOf(placement.parentId, placement.orgId);
        const to = siblingGroupOf(toParentId, placement.orgId);
        const parents = [placement.parentId, toParentId].filter((parent) => parent !== null);
        return {
          changes: [objectRow(id), placementOf(id)],
          // Its old and new parents: their rows (a parent created or updated in the run would be
          // changed under it) and their places, access and tombstones.
          reads: parents.flatMap((parent) => [objectRow(parent), placementOf(parent)]),
          // It frees its slug among its old siblings and takes one of the same family among the new.
          slugs: placement.slugs.flatMap((base) => [
            { group: from, base },
            { group: to, base },
          ]),
        };
      }
      case 'PortalObjectDeleted': {
        const { id } = event.data;
        const placement = placements.get(id);
        placements.delete(id);
        if (!placement?.bare) return null;
        const group = siblingGroupOf(placement.parentId, placement.orgId);
        return {
          changes: [objectRow(id), placementOf(id)],
          reads:
            placement.parentId === null
              ? []
              : [objectRow(placement.parentId), placementOf(placement.parentId)],
          slugs: placement.slugs.map((base) => ({ group, base })),
        };
      }
      case 'VisibilityChanged':
      case 'ObjectShared':
      case 'ObjectUnshared':
      case 'UploadCompletionRequested':
      case 'UploadCompleted':
      case 'UploadFailed':
      case 'UploadAborted':
      case 'UploadExpired':
      case 'AssetAttached':
        return portalObjectFootprint(recorded);
      default:
        return exhausted(event);
    }
  };
}

function exhausted(event: never): never {
  throw new Error(`unhandled portal object event ${JSON.stringify(event)}`);
}
