import type { Request, RequestHandler } from 'express';
import {
  createItemBodySchema,
  type CreateItemBody,
  type CreatedObject,
  type UploadDescriptor,
} from '@portal/contracts';
import {
  DomainError,
  portalObjectDecider,
  type Caller,
  type CreateItem as CreateItemCommand,
  type ItemMetadata,
  type RegisterItem,
  type UploadPlan,
} from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandCaller } from '../commands/command-caller.js';
import { respondToCommand, type CommandOutcome } from '../commands/respond.js';
import {
  freeStacItemId,
  newObjectAccess,
  requireIdUnusedByOtherKinds,
  type FoundParent,
} from '@portal/commands';
import { commandContextOf } from '../commands/command-context.js';
import { createObject, type NewObject } from '../commands/create-object.js';
import { HttpProblem } from '../http/problem.js';
import { parseInput } from '../http/validate.js';
import { pendingUploadPlan } from './upload-plan.js';
import { uploadDescriptorOf } from './upload-descriptor.js';

export function itemMetadataOf(body: CreateItemBody): ItemMetadata {
  return {
    geometry: body.geometry ?? null,
    bbox: body.bbox ?? null,
    datetime: body.datetime ?? null,
    startDatetime: body.start_datetime ?? null,
    endDatetime: body.end_datetime ?? null,
    tags: body.tags ?? [],
    properties: body.properties ?? null,
  };
}

function requireParentId(body: CreateItemBody): string {
  if (body.parentId !== undefined) return body.parentId;
  throw new HttpProblem(
    400,
    'parentId: is required: an item lives in a collection or a catalog',
    'VALIDATION_FAILED',
  );
}

/**
 * A new item: with its multipart upload (the answer is the upload descriptor), or, when the body gives
 * `assets`, registered by href (no upload, `ready` at once; the answer is the created object).
 */
export async function runCreateItem(
  deps: ApiDependencies,
  req: Request,
  caller: Caller,
  body: CreateItemBody,
): Promise<{ id: string; outcome: CommandOutcome; answer: UploadDescriptor | CreatedObject }> {
  const parentId = requireParentId(body);
  if (body.assets !== undefined) {
    const { id, outcome } = await runRegisterItem(deps, req, caller, body, null);
    return { id, outcome, answer: { portalItemId: id } };
  }
  const now = deps.now();
  const { id, outcome, upload } = await createObject(deps, req, caller, 'item', parentId, (place) =>
    appendNewItem(deps, req, caller, body, place, now),
  );
  return { id, outcome, answer: await uploadDescriptorOf(deps, id, upload, now) };
}

/**
 * Decides the item, opens its multipart upload and appends. The rules (permissions included) are
 * checked before the object store is asked for an upload, so a refused request leaves nothing behind; an
 * append that fails after it aborts the upload again.
 */
async function appendNewItem(
  deps: ApiDependencies,
  req: Request,
  caller: Caller,
  body: CreateItemBody,
  { parent, append }: NewObject,
  now: Date,
): Promise<{ id: string; outcome: CommandOutcome; upload: UploadPlan }> {
  const id = await newItemId(deps, body, null);
  const pending = pendingUploadPlan(deps.config, id, body, now);
  const command = (upload: UploadPlan) => itemCommand(id, body, parent, caller, upload);
  // Decided once before the object store is asked for an upload: a refused create leaves nothing there.
  portalObjectDecider.decide(command({ ...pending, uploadId: '' }), portalObjectDecider.initialState);

  const uploadId = await deps.objectStore.createMultipartUpload(pending.key, pending.contentType);
  const upload: UploadPlan = { ...pending, uploadId };
  try {
    const outcome = await append(id, command(upload));
    return { id, outcome, upload };
  } catch (error) {
    // Only when the append surely wrote nothing: after a lost connection it may have committed, and the
    // item would keep a dead upload. Such an upload is then the sweep's (or the lifecycle rule's).
    if (!(error instanceof DomainError)) throw error;
    await deps.objectStore.abortMultipartUpload(upload.key, uploadId).catch((abortError: unknown) => {
      req.log.warn(
        { err: abortError, itemId: id },
        'upload left open after a failed create; the bucket lifecycle rule aborts it',
      );
    });
    throw error;
  }
}

/** The domain command of an item create; shared by the single create and the bulk paths. */
export function itemCommand(
  id: string,
  body: CreateItemBody,
  parent: FoundParent | null,
  caller: Caller,
  upload: UploadPlan,
): CreateItemCommand {
  return {
    type: 'CreateItem',
    data: {
      id,
      title: body.title,
      description: body.description ?? null,
      links: body.links,
      metadata: itemMetadataOf(body),
      upload,
      stacId: body.stacId ?? null,
      parent: parent?.lookup ?? null,
      access: newObjectAccess(caller, body.visibility),
    },
  };
}

/**
 * The id of a new item: the UUID its client chose (a STAC item's), the next free UUID of its STAC name
 * in its parent (`stacId`: stac-item-ids.ts), or a fresh one. A live item of that name in the parent
 * answers 409: one created there, found in the event store, or one moved in, found in the read model.
 */
export async function newItemId(
  deps: ApiDependencies,
  body: CreateItemBody,
  chosenId: string | null,
): Promise<string> {
  if (chosenId !== null) {
    await requireIdUnusedByOtherKinds(deps.eventStore, chosenId, 'item');
    return chosenId;
  }
  const { stacId } = body;
  if (stacId === undefined) return deps.newId();
  return freeStacItemId(commandContextOf(deps), requireParentId(body), stacId);
}

/**
 * A new item registered by href, under the id the client chose (a STAC item's UUID; an id that exists
 * or existed answers 409), its STAC name's, or a fresh one.
 */
export function runRegisterItem(
  deps: ApiDependencies,
  req: Request,
  caller: Caller,
  body: CreateItemBody,
  chosenId: string | null,
): Promise<{ id: string; outcome: CommandOutcome }> {
  return createObject(deps, req, caller, 'item', requireParentId(body), async ({ parent, append }) => {
    const id = await newItemId(deps, body, chosenId);
    const outcome = await append(id, registerCommand(id, body, parent, caller, deps.newId));
    return { id, outcome };
  });
}

/** The domain command of an item registered by href; each asset gets a fresh id. */
export function registerCommand(
  id: string,
  body: CreateItemBody,
  parent: FoundParent | null,
  caller: Caller,
  newId: () => string,
): RegisterItem {
  return {
    type: 'RegisterItem',
    data: {
      id,
      title: body.title,
      description: body.description ?? null,
      links: body.links,
      metadata: itemMetadataOf(body),
      assets: Object.entries(body.assets ?? {}).map(([key, asset]) => ({ id: newId(), key, asset })),
      stacId: body.stacId ?? null,
      parent: parent?.lookup ?? null,
      access: newObjectAccess(caller, body.visibility),
    },
  };
}

export function createItem(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const body = parseInput(createItemBodySchema, req.body, 'item');
    const caller = await commandCaller(deps, req);
    const { id, outcome, answer } = await runCreateItem(deps, req, caller, body);
    res.setHeader('Location', `/api/v1/portal/items/${id}`);
    await respondToCommand(deps, req, res, outcome, { status: 201, body: answer });
  };
}
