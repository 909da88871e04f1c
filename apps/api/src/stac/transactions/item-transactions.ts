import type { Request, RequestHandler, Response } from 'express';
import { stacItemCollectionInputSchema, stacItemInputSchema, type StacItemInput } from '@portal/contracts';
import { principalsOf } from '../../auth/caller.js';
import { respondToCommand, type CommandOutcome } from '../../commands/respond.js';
import type { ApiDependencies } from '../../dependencies.js';
import { baseUrlOf } from '../../http/base-url.js';
import { prefersAsync, writeConsistencyHeaders } from '../../http/consistency.js';
import { parseInput } from '../../http/validate.js';
import { runRegisterItem } from '../../items/create-item.js';
import { findAssetsOf, stacIdOf, stacItem, type CollectionKey } from '@portal/read-model-portal-objects';
import { findVisibleItem } from '../item-query.js';
import { GEOJSON_TYPE, stacUrls } from '../stac-links.js';
import { visibleCollection } from '../path-collection.js';
import { clientUuid, createBodyOf } from './item-input.js';
import { signedInCaller } from './signed-in-caller.js';

// The STAC transaction extension over the portal's commands (docs/stac.md, Transactions): each write
// is the portal API's own command, so events, history, audit and the feed see it, and the caller needs
// the same rights (anonymous 401; an object the caller cannot see 404, one they may not change 403;
// a DELETE of an item answers 204 for one the caller cannot see: item-delete.ts).

/** The body as the Items it adds: an ItemCollection's features, or the one Item. */
function itemsOf(body: unknown): { items: StacItemInput[]; many: boolean } {
  const many =
    typeof body === 'object' && body !== null && 'type' in body && body.type === 'FeatureCollection';
  if (many) return { items: parseInput(stacItemCollectionInputSchema, body, 'body').features, many };
  return { items: [parseInput(stacItemInputSchema, body, 'body')], many };
}

/**
 * Answers with the Item written, its STAC JSON once projected: the one Item a POST added (201), or the
 * Item a PUT or PATCH changed, to `Prefer: return=representation` (200); `Location` names it either
 * way. Its ids alone when asked to answer at once or when the projection is slower than the API waits
 * (202).
 */
export async function respondWithItem(
  deps: ApiDependencies,
  req: Request,
  res: Response,
  created: { id: string; stac_id: string | null; collection: CollectionKey; outcome: CommandOutcome },
  status: 200 | 201 = 201,
): Promise<void> {
  const baseUrl = baseUrlOf(req, deps.config);
  const urls = stacUrls(baseUrl);
  const { id, collection, outcome } = created;
  const stacId = stacIdOf(created);
  writeConsistencyHeaders(res, outcome.position, outcome.revision);
  res.setHeader('Location', urls.item(stacId, collection.stacId));
  const projected =
    outcome.position === null ||
    (!prefersAsync(req) && (await deps.projection.waitFor(outcome.position, deps.config.PROJECTION_WAIT_MS)));
  if (prefersAsync(req)) res.setHeader('Preference-Applied', 'respond-async');
  const row = projected ? await findVisibleItem(deps.pool, id, principalsOf(req)) : null;
  if (row === null) {
    res.status(202).json({ id: stacId, collection: collection.stacId });
    return;
  }
  const assets = await findAssetsOf(deps.pool, [row.id]);
  res
    .status(status)
    .type(GEOJSON_TYPE)
    .json(stacItem(row, assets.get(row.id) ?? [], urls, baseUrl));
}

/**
 * `POST /collections/{id}/items`: an Item, or an ItemCollection, each registered by href in the path's
 * collection. Every Item is checked before any is created; the creates then run in order, and one
 * refused (an id that exists: 409) stops the rest, the earlier ones staying created (the extension
 * allows it; the error names the Item).
 */
export function addItems(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { items, many } = itemsOf(req.body);
    const caller = await signedInCaller(deps, req);
    const collection = await visibleCollection(deps, req);
    const prepared = items.map((item, index) => {
      const position = many ? `features[${index}].` : '';
      return { uuid: clientUuid(item), body: createBodyOf(item, collection, position) };
    });
    const created: { id: string; stac_id: string | null }[] = [];
    let last: CommandOutcome = { position: null, revision: null };
    for (const { uuid, body } of prepared) {
      const { id, outcome } = await runRegisterItem(deps, req, caller, body, uuid);
      created.push({ id, stac_id: body.stacId ?? null });
      last = outcome;
    }
    const [only] = created;
    if (!many && only !== undefined) {
      await respondWithItem(deps, req, res, { ...only, collection, outcome: last });
      return;
    }
    const ids = created.map(stacIdOf);
    // Several streams changed: the position of the last one covers them all, no single revision.
    await respondToCommand(
      deps,
      req,
      res,
      { position: last.position, revision: null },
      {
        status: 201,
        body: { ids },
      },
    );
  };
}
