import type { Request, RequestHandler } from 'express';
import { createCollectionBodySchema, type CreateCollectionBody } from '@portal/contracts';
import type { Caller, CreateCollection } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandCaller } from '../commands/command-caller.js';
import { respondToCommand, type CommandOutcome } from '../commands/respond.js';
import {
  freeStacCollectionId,
  newObjectAccess,
  requireIdUnusedByOtherKinds,
  type FoundParent,
} from '@portal/commands';
import { createObject } from '../commands/create-object.js';
import { parseInput } from '../http/validate.js';

/**
 * Decides and appends a new collection; the single create's, and a STAC client's under the UUID it
 * chose (`chosenId`; one that exists or existed answers 409). A collection named by its client
 * (`stacId`) takes the UUID its name derives (docs/stac.md, "Collection ids").
 */
export async function runCreateCollection(
  deps: ApiDependencies,
  req: Request,
  caller: Caller,
  body: CreateCollectionBody,
  chosenId: string | null = null,
): Promise<{ id: string; outcome: CommandOutcome }> {
  return createObject(deps, req, caller, 'collection', body.parentId ?? null, async ({ parent, append }) => {
    const id = await newCollectionId(deps, body, chosenId);
    const outcome = await append(id, collectionCommand(id, body, parent, caller));
    return { id, outcome };
  });
}

/** A new collection's UUID: the one its client chose, the one its STAC name derives, or a fresh one. */
export async function newCollectionId(
  deps: ApiDependencies,
  body: CreateCollectionBody,
  chosenId: string | null,
): Promise<string> {
  if (chosenId !== null) {
    await requireIdUnusedByOtherKinds(deps.eventStore, chosenId, 'collection');
    return chosenId;
  }
  return body.stacId === undefined ? deps.newId() : freeStacCollectionId(deps.eventStore, body.stacId);
}

/** The domain command of a collection create; shared by the single create and the bulk paths. */
export function collectionCommand(
  id: string,
  body: CreateCollectionBody,
  parent: FoundParent | null,
  caller: Caller,
): CreateCollection {
  const { title, description, links, license, keywords, extent, stacId } = body;
  return {
    type: 'CreateCollection',
    data: {
      id,
      title,
      description,
      links,
      parent: parent?.lookup ?? null,
      access: newObjectAccess(caller, body.visibility),
      ...(license === undefined ? {} : { license }),
      ...(keywords === undefined ? {} : { keywords }),
      ...(extent === undefined ? {} : { extent }),
      ...(stacId === undefined ? {} : { stacId }),
    },
  };
}

export function createCollection(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const body = parseInput(createCollectionBodySchema, req.body, 'collection');
    const caller = await commandCaller(deps, req);
    const { id, outcome } = await runCreateCollection(deps, req, caller, body);
    res.setHeader('Location', `/api/v1/collections/${id}`);
    await respondToCommand(deps, req, res, outcome, { status: 201, body: { portalItemId: id } });
  };
}
