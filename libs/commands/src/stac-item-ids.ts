import { createHash } from 'node:crypto';
import {
  DomainError,
  holdsStacName,
  isLiveItemIn,
  isUuid,
  portalObjectDecider,
  streamIdOf,
  type EventStore,
  type PortalObjectState,
} from '@portal/domain';
import type { CommandContext } from './command-context.js';
import { loadStream } from './handler/load-stream.js';

// A STAC client names its items itself (`S2A_47XNF_20230423_0_L2A`), unique within a collection; the
// portal's ids are UUIDs. The item registered under such a name gets a UUID derived from its parent and
// the name (docs/stac.md, "Item ids"), so the name needs no registry of its own: a second create of the
// same name in the same collection lands on the same stream and is refused there (409), a retried POST
// included, whichever API instance takes it. Ids are never reused, so the name of a deleted item (or of
// one moved to another collection) goes on to the next UUID of its sequence: generation 2, 3, …

/** How many times one name may be given in one parent; past it the create is refused. */
export const MAX_STAC_ID_GENERATIONS = 1000;

/** A name-based UUID (RFC 9562, version 5: SHA-1) of `name` in the namespace `namespaceId`. */
export function uuidV5(namespaceId: string, name: string): string {
  const namespace = Buffer.from(namespaceId.replaceAll('-', ''), 'hex');
  const bytes = createHash('sha1').update(namespace).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The portal id of the `generation`-th item named `stacId` in the parent. A STAC id holds no control
 * character (the API refuses them), so the line break keeps generations apart from every other name.
 */
export function stacItemUuid(parentId: string, stacId: string, generation: number): string {
  return uuidV5(parentId, generation === 1 ? stacId : `${stacId}\n${generation}`);
}

/** The item of `id` as the event store has it now. */
async function itemState(store: EventStore, id: string): Promise<PortalObjectState> {
  return (await loadStream(store, streamIdOf('item', id), portalObjectDecider)).state;
}

/** Where a name stands in a parent: the live item holding it, or the id its next item gets (`null`: none left). */
type NameStanding = { readonly holder: string } | { readonly next: string | null };

/**
 * The name's standing as the event store has it. An item of the name moved in from another collection
 * has a UUID of that collection's sequence: the read model names such items, and each is confirmed in
 * the event store (the read model may still show one deleted or moved away since).
 */
async function standingOf(
  context: Pick<CommandContext, 'store' | 'tree'>,
  parent: string,
  stacId: string,
): Promise<NameStanding> {
  for (const id of await context.tree.liveItemsNamed(parent, stacId)) {
    if (holdsStacName(await itemState(context.store, id), parent, stacId)) return { holder: id };
  }
  for (let generation = 1; generation <= MAX_STAC_ID_GENERATIONS; generation += 1) {
    const id = stacItemUuid(parent, stacId, generation);
    const state = await itemState(context.store, id);
    if (state.status === 'absent') return { next: id };
    if (holdsStacName(state, parent, stacId)) return { holder: id };
  }
  return { next: null };
}

/**
 * The id a new item named `stacId` in the parent gets: the first of its sequence whose stream does not
 * exist. A live item of that name in the parent answers 409; one deleted, or moved away, passes the name
 * on (and so does an item some client created under that UUID by choice, with another name or none).
 * Two creates racing for one free id both try to append its first event, and one is refused there.
 */
export async function freeStacItemId(
  context: Pick<CommandContext, 'store' | 'tree'>,
  parentId: string,
  stacId: string,
): Promise<string> {
  const parent = parentId.toLowerCase();
  const standing = await standingOf(context, parent, stacId);
  if ('holder' in standing) {
    throw new DomainError('ALREADY_EXISTS', `item ${stacId} already exists in ${parent}`);
  }
  if (standing.next !== null) return standing.next;
  throw new DomainError(
    'ALREADY_EXISTS',
    `item ${stacId} was created in ${parent} ${MAX_STAC_ID_GENERATIONS} times already; give the new one another id`,
  );
}

/**
 * The live item a STAC path names in a collection (`pathId`: the item's UUID, or its STAC id), as the
 * event store has it now; `null` when there is none. For a write that must not trust a read model that
 * may lag behind the client's own earlier writes.
 */
export async function liveItemOfPath(
  context: Pick<CommandContext, 'store' | 'tree'>,
  collectionId: string,
  pathId: string,
): Promise<string | null> {
  const parent = collectionId.toLowerCase();
  if (isUuid(pathId)) {
    const id = pathId.toLowerCase();
    return isLiveItemIn(await itemState(context.store, id), parent) ? id : null;
  }
  const standing = await standingOf(context, parent, pathId);
  return 'holder' in standing ? standing.holder : null;
}
