import {
  DomainError,
  holdsCollectionName,
  portalObjectDecider,
  streamIdOf,
  type EventStore,
} from '@portal/domain';
import { heldByAnotherKind } from './chosen-ids.js';
import { loadStream } from './handler/load-stream.js';
import { hasDeletedAncestor } from './object-repository.js';
import { MAX_STAC_ID_GENERATIONS, uuidV5 } from './stac-item-ids.js';

// A STAC client names its collections itself (`sentinel-2-l2a`); a STAC API has one list of collections,
// so a name is unique among all the portal's live collections, whichever organization holds them
// (docs/stac.md, "Collection ids"). As for item names, the collection's UUID is derived from the name, so
// no registry is needed: two creates of one name land on one stream, and the event store refuses the
// second (409). A deleted collection's name goes on to the next UUID of its sequence. A collection's
// name does not depend on where it sits, so a move never changes which name a collection holds.

/** The namespace of collection names: a constant of this service, never to change (ids derive from it). */
export const STAC_COLLECTION_NAMESPACE = '5139554a-4d8e-405f-9ce6-1e2209545913';

/** The portal id of the `generation`-th collection named `stacId` (the line break as for items). */
export function stacCollectionUuid(stacId: string, generation: number): string {
  return uuidV5(STAC_COLLECTION_NAMESPACE, generation === 1 ? stacId : `${stacId}\n${generation}`);
}

/**
 * The id a new collection named `stacId` gets: the first of its sequence under which no object of any
 * kind was ever created. A live collection of that name answers 409 (wherever it is, and whoever may
 * read it); a deleted one (itself, or by a recursive delete above it) passes the name on, as does an
 * object some client created under that UUID by choice.
 */
export async function freeStacCollectionId(store: EventStore, stacId: string): Promise<string> {
  for (let generation = 1; generation <= MAX_STAC_ID_GENERATIONS; generation += 1) {
    const id = stacCollectionUuid(stacId, generation);
    const { state } = await loadStream(store, streamIdOf('collection', id), portalObjectDecider);
    if (holdsCollectionName(state, stacId)) {
      // A recursive delete above the collection gives it no event of its own: it is gone all the same.
      if (await hasDeletedAncestor(store, state.parentId)) continue;
      throw new DomainError('ALREADY_EXISTS', `collection ${stacId} already exists`);
    }
    if (state.status !== 'absent') continue;
    // A catalog or an item under the UUID (a client's choice) would share the read model's key.
    if (!(await heldByAnotherKind(store, id, 'collection'))) return id;
  }
  throw new DomainError(
    'ALREADY_EXISTS',
    `collection ${stacId} was created ${MAX_STAC_ID_GENERATIONS} times already; give the new one another id`,
  );
}
