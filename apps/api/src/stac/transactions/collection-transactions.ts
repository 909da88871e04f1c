import type { Request, RequestHandler, Response } from 'express';
import {
  createCollectionBodySchema,
  stacCollectionInputSchema,
  type CreateCollectionBody,
  type StacCollectionInput,
} from '@portal/contracts';
import { isUuid, type PortalObjectChanges } from '@portal/domain';
import { principalsOf } from '../../auth/caller.js';
import { deleteOneAndRespond } from '../../commands/delete-one.js';
import type { CommandOutcome } from '../../commands/respond.js';
import { runCreateCollection } from '../../collections/create-collection.js';
import type { ApiDependencies } from '../../dependencies.js';
import { baseUrlOf } from '../../http/base-url.js';
import { prefersAsync, writeConsistencyHeaders } from '../../http/consistency.js';
import { HttpProblem } from '../../http/problem.js';
import { parseInput } from '../../http/validate.js';
import { findVisibleObject, stacIdOf, type PortalObjectRow } from '@portal/read-model-portal-objects';
import { stacCollection } from '../container-json.js';
import { stacUrls } from '../stac-links.js';
import { answerChange } from './change-answer.js';
import { clientUuid, portalLinksOf } from './item-input.js';
import { visibleCollectionRow } from '../path-collection.js';
import { signedInCaller } from './signed-in-caller.js';
import { mergePatch } from './merge-patch.js';
import { updateObject } from './update-object.js';

// The collection transaction extension over the portal's collection commands (docs/stac.md,
// Transactions): create at root level in the caller's organization, replace, merge-patch, delete.

function refused(message: string): HttpProblem {
  return new HttpProblem(400, message, 'VALIDATION_FAILED');
}

/**
 * The portal create a STAC Collection means, checked as `POST /api/v1/portal/collections/create`
 * checks one: the title (the id, or `Untitled collection`, when none), description, license, keywords,
 * extent as given (left out: computed from the items), links but the generated ones, and an id that is
 * not a UUID as the collection's STAC name (docs/stac.md, "Collection ids"). Other STAC fields
 * (`providers`, `summaries`, `assets`, `stac_extensions`…) are not kept.
 */
function createBodyOf(collection: StacCollectionInput): CreateCollectionBody {
  const body: Record<string, unknown> = {
    title: collection.title ?? collection.id ?? 'Untitled collection',
    description: collection.description,
    links: portalLinksOf(collection.links ?? []),
  };
  if (collection.license !== undefined) body['license'] = collection.license;
  if (collection.keywords !== undefined) body['keywords'] = collection.keywords;
  if (collection.extent !== undefined) body['extent'] = collection.extent;
  if (collection.id !== undefined && !isUuid(collection.id)) body['stacId'] = collection.id;
  return parseInput(createCollectionBodySchema, body, 'collection');
}

/** Answers with the Collection once projected, or its id alone when async or slow (202). */
async function respondWithCollection(
  deps: ApiDependencies,
  req: Request,
  res: Response,
  written: { id: string; stacId: string; outcome: CommandOutcome; status: 200 | 201 },
): Promise<void> {
  const baseUrl = baseUrlOf(req, deps.config);
  const urls = stacUrls(baseUrl);
  const { id, stacId, outcome, status } = written;
  writeConsistencyHeaders(res, outcome.position, outcome.revision);
  if (status === 201) res.setHeader('Location', urls.collection(stacId));
  const asynchronous = prefersAsync(req);
  if (asynchronous) res.setHeader('Preference-Applied', 'respond-async');
  const projected =
    outcome.position === null ||
    (!asynchronous && (await deps.projection.waitFor(outcome.position, deps.config.PROJECTION_WAIT_MS)));
  const row = projected ? await findVisibleObject(deps.pool, id, principalsOf(req), 'collection') : null;
  if (row === null) {
    res.status(202).json({ id: stacId });
    return;
  }
  res.status(status).json(stacCollection(row, urls, baseUrl));
}

/** `POST /collections`: a new root-level collection of the caller's active organization. */
export function addCollection(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const collection = parseInput(stacCollectionInputSchema, req.body, 'body');
    const caller = await signedInCaller(deps, req);
    const body = createBodyOf(collection);
    const { id, outcome } = await runCreateCollection(deps, req, caller, body, clientUuid(collection));
    const stacId = body.stacId ?? id;
    await respondWithCollection(deps, req, res, { id, stacId, outcome, status: 201 });
  };
}

/** What a client wrote of a collection: its own fields, the extent only when one was given. */
function writtenCollection(row: PortalObjectRow): Record<string, unknown> {
  return {
    type: 'Collection',
    id: stacIdOf(row),
    title: row.title,
    description: row.description ?? '',
    license: row.license ?? 'other',
    keywords: row.keywords ?? [],
    ...(row.extent === null ? {} : { extent: row.extent }),
  };
}

/** PUT (`patch: false`) replaces the Collection; PATCH merges a JSON merge patch into it first. */
function changeCollection(deps: ApiDependencies, patch: boolean): RequestHandler {
  return async (req, res) => {
    const requested: unknown = req.body;
    if (patch && (typeof requested !== 'object' || requested === null || Array.isArray(requested))) {
      throw refused('invalid body: must be a JSON object (a merge patch of the Collection)');
    }
    const caller = await signedInCaller(deps, req);
    const row = await visibleCollectionRow(deps, req);
    const merged = patch ? mergePatch(writtenCollection(row), requested) : requested;
    const collection = parseInput(stacCollectionInputSchema, merged, patch ? 'patched collection' : 'body');
    const { id } = collection;
    if (id !== undefined && id !== stacIdOf(row) && id.toLowerCase() !== row.id) {
      throw refused(`id: '${id.slice(0, 100)}' is not the collection of the path`);
    }
    const body = createBodyOf(collection);
    const keepLinks = patch ? !('links' in (requested as object)) : collection.links === undefined;
    const changes: PortalObjectChanges = {
      title: body.title,
      description: body.description,
      license: body.license ?? 'other',
      keywords: body.keywords ?? [],
      // No extent: computed from the items again.
      extent: body.extent ?? null,
      ...(keepLinks ? {} : { links: body.links }),
    };
    const result = await updateObject(deps, req, { id: row.id, kind: 'collection', caller, changes });
    const stacId = stacIdOf(row);
    await answerChange(deps, req, res, {
      outcome: result,
      accepted: { id: stacId },
      representation: () =>
        respondWithCollection(deps, req, res, { id: row.id, stacId, outcome: result, status: 200 }),
    });
  };
}

export const replaceCollection = (deps: ApiDependencies): RequestHandler => changeCollection(deps, false);
export const patchCollection = (deps: ApiDependencies): RequestHandler => changeCollection(deps, true);

/**
 * `DELETE /collections/{id}`: the portal's delete, answered 204; a collection that still has items
 * answers 409, one that does not exist (or that the caller cannot see) 404.
 */
export function deleteCollection(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const caller = await signedInCaller(deps, req);
    const row = await visibleCollectionRow(deps, req);
    await deleteOneAndRespond(deps, req, res, {
      id: row.id,
      kinds: ['collection'],
      caller,
      recursive: false,
      success: 204,
    });
  };
}
