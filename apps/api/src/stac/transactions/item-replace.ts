import type { Request, RequestHandler } from 'express';
import { stacItemInputSchema, type StacItemInput } from '@portal/contracts';
import { requireFound } from '@portal/commands';
import type { PortalObjectChanges } from '@portal/domain';
import { stacIdOf, type CollectionKey } from '@portal/read-model-portal-objects';
import { principalsOf } from '../../auth/caller.js';
import type { ApiDependencies } from '../../dependencies.js';
import { HttpProblem } from '../../http/problem.js';
import { parseInput } from '../../http/validate.js';
import { itemMetadataOf } from '../../items/create-item.js';
import { findVisibleItemIn, type ItemRow } from '../item-query.js';
import { answerChange } from './change-answer.js';
import { createBodyOf } from './item-input.js';
import { pathParam, visibleCollection } from '../path-collection.js';
import { respondWithItem } from './item-transactions.js';
import { signedInCaller } from './signed-in-caller.js';
import { mergePatch } from './merge-patch.js';
import { updateObject } from './update-object.js';

/** The item of the path, in the path's collection and visible to the caller; 404 otherwise. */
async function itemOfPath(deps: ApiDependencies, req: Request): Promise<ItemRow> {
  const collection = await visibleCollection(deps, req);
  const itemId = pathParam(req, 'itemId');
  const row = await findVisibleItemIn(deps.pool, collection.id, itemId, principalsOf(req));
  return requireFound(row, `item ${itemId} in collection ${collection.stacId}`);
}

/** The collection of an item of the path (its parent, which the path named). */
function collectionOf(row: ItemRow): CollectionKey {
  const id = row.parent_id ?? '';
  return { id, stacId: row.parent_stac_id ?? id };
}

/**
 * What a client wrote of an item, as STAC: its free-form properties with its title, description and
 * time, its geometry and given bbox, its assets by href (not its uploaded file, which is the portal's),
 * and no links (they are kept unless the request gives its own).
 */
function writtenItem(row: ItemRow): StacItemInput {
  const time =
    row.start_datetime !== null && row.end_datetime !== null
      ? {
          datetime: null,
          start_datetime: row.start_datetime.toISOString(),
          end_datetime: row.end_datetime.toISOString(),
        }
      : row.datetime === null
        ? {}
        : { datetime: row.datetime.toISOString() };
  return {
    type: 'Feature',
    id: stacIdOf(row),
    collection: collectionOf(row).stacId,
    geometry: row.geometry,
    ...(row.bbox === null ? {} : { bbox: row.bbox }),
    properties: {
      ...row.properties,
      title: row.title,
      ...(row.description === null ? {} : { description: row.description }),
      ...time,
    },
    assets: Object.fromEntries(row.href_assets.map(({ key, asset }) => [key, asset])),
  };
}

/** Whether a body's `id` names the item: its client's own id exactly, or its UUID in any case. */
function namesItem(id: string, row: ItemRow): boolean {
  return id === row.stac_id || id.toLowerCase() === row.id;
}

/**
 * The update a whole Item means: title, description, metadata and assets replaced; links only when
 * the Item gives them (a STAC client rarely round-trips the portal's own links).
 */
function replacement(
  deps: ApiDependencies,
  item: StacItemInput,
  row: ItemRow,
  keepLinks: boolean,
): PortalObjectChanges {
  if (item.id !== undefined && !namesItem(item.id, row)) {
    throw new HttpProblem(
      400,
      `id: '${item.id.slice(0, 100)}' is not the item of the path`,
      'VALIDATION_FAILED',
    );
  }
  const body = createBodyOf(item, collectionOf(row), '');
  return {
    title: body.title,
    description: body.description ?? null,
    ...(keepLinks ? {} : { links: body.links }),
    metadata: itemMetadataOf(body),
    assets: Object.entries(body.assets ?? {}).map(([key, asset]) => ({ id: deps.newId(), key, asset })),
  };
}

/** PUT (`patch: false`) replaces the Item; PATCH merges a JSON merge patch (RFC 7386) into it first. */
function changeItem(deps: ApiDependencies, patch: boolean): RequestHandler {
  return async (req, res) => {
    const requested: unknown = req.body;
    if (patch && (typeof requested !== 'object' || requested === null || Array.isArray(requested))) {
      throw new HttpProblem(
        400,
        'invalid body: must be a JSON object (a merge patch of the Item)',
        'VALIDATION_FAILED',
      );
    }
    const caller = await signedInCaller(deps, req);
    const row = await itemOfPath(deps, req);
    const merged = patch ? mergePatch(writtenItem(row), requested) : requested;
    const item = parseInput(stacItemInputSchema, merged, patch ? 'patched item' : 'body');
    const keepLinks = patch ? !('links' in (requested as object)) : item.links === undefined;
    const changes = replacement(deps, item, row, keepLinks);
    const result = await updateObject(deps, req, { id: row.id, kind: 'item', caller, changes });
    const { id, stac_id } = row;
    const collection = collectionOf(row);
    await answerChange(deps, req, res, {
      outcome: result,
      accepted: { id: stacIdOf(row), collection: collection.stacId },
      representation: () =>
        respondWithItem(deps, req, res, { id, stac_id, collection, outcome: result }, 200),
    });
  };
}

/** `PUT /collections/{id}/items/{itemId}`: the Item replaced by the one given (404 when there is none). */
export const replaceItem = (deps: ApiDependencies): RequestHandler => changeItem(deps, false);

/** `PATCH /collections/{id}/items/{itemId}`: the Item changed by a JSON merge patch. */
export const patchItem = (deps: ApiDependencies): RequestHandler => changeItem(deps, true);
