import type { Request, RequestHandler, Response } from 'express';
import { liveItemOfPath, lookupParent, requireParentAccess } from '@portal/commands';
import { DomainError, type Caller } from '@portal/domain';
import type { CollectionKey } from '@portal/read-model-portal-objects';
import { principalsOf } from '../../auth/caller.js';
import { commandContextOf } from '../../commands/command-context.js';
import { deleteOneAndRespond } from '../../commands/delete-one.js';
import type { ApiDependencies } from '../../dependencies.js';
import { expectedRevisionFrom } from '../../http/consistency.js';
import { HttpProblem } from '../../http/problem.js';
import { findVisibleItemIn } from '../item-query.js';
import { pathParam, visibleCollection } from '../path-collection.js';
import { signedInCaller } from './signed-in-caller.js';

function isNotFound(error: unknown): boolean {
  return error instanceof DomainError && error.code === 'NOT_FOUND';
}

/**
 * Whether the caller may add items to the collection, as the event store has it now: 403 when they may
 * not. A collection the event store no longer has for them (deleted, or unreadable since the read
 * model's look) answers 404, as the path's collection does.
 */
async function requireItemsWritable(deps: ApiDependencies, caller: Caller, collection: CollectionKey) {
  const parent = await lookupParent(deps.eventStore, collection.id);
  const gone = () => new DomainError('NOT_FOUND', `collection ${collection.stacId} not found`);
  if (!parent.lookup.found || parent.lookup.deleted) throw gone();
  try {
    requireParentAccess(caller, parent);
  } catch (error) {
    throw error instanceof DomainError && error.code === 'PARENT_NOT_FOUND' ? gone() : error;
  }
}

/**
 * An item the path names that does not exist answers as a delete would have: 204, nothing written (the
 * extension allows 404 or 204 there; the reference validator's first request expects 204). Only a caller
 * who may add items to the collection is told so: anyone else is refused as they would be for an item
 * that exists. `If-Match` asks for a version of an item there is none of: 412.
 */
async function answerMissingItem(
  deps: ApiDependencies,
  req: Request,
  res: Response,
  missing: { readonly caller: Caller; readonly collection: CollectionKey; readonly itemId: string },
): Promise<void> {
  await requireItemsWritable(deps, missing.caller, missing.collection);
  if (req.header('if-match') !== undefined) {
    throw new HttpProblem(
      412,
      `If-Match: item ${missing.itemId} does not exist in collection ${missing.collection.stacId}`,
      'STALE_REVISION',
    );
  }
  res.status(204).end();
}

/**
 * `DELETE /collections/{id}/items/{itemId}`: the portal's delete of an item of that collection, 204.
 * The item is looked up in the read model, and where it is not there, in the event store (a client's
 * own create may not be projected yet: a delete must not answer 204 and leave it). An item the caller
 * cannot see, or that is already deleted, is to them one that does not exist (`answerMissingItem`):
 * the answer never tells a hidden item is there, and a retried delete answers as the first did.
 */
export function deleteItem(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const caller = await signedInCaller(deps, req);
    // A malformed If-Match answers 400 here, before any lookup, whatever the path names.
    expectedRevisionFrom(req);
    const collection = await visibleCollection(deps, req);
    const itemId = pathParam(req, 'itemId');
    const row = await findVisibleItemIn(deps.pool, collection.id, itemId, principalsOf(req));
    const id = row?.id ?? (await liveItemOfPath(commandContextOf(deps), collection.id, itemId));
    if (id !== null) {
      try {
        await deleteOneAndRespond(deps, req, res, {
          id,
          kinds: ['item'],
          caller,
          recursive: false,
          success: 204,
        });
        return;
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
    await answerMissingItem(deps, req, res, { caller, collection, itemId });
  };
}
