import type { Request, RequestHandler } from 'express';
import { createItemBodySchema, type CreateItemBody, type UploadDescriptor } from '@portal/contracts';
import {
  DomainError,
  portalObjectDecider,
  type Caller,
  type CreateItem as CreateItemCommand,
  type ItemMetadata,
  type UploadPlan,
} from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandCaller } from '../commands/command-caller.js';
import { respondToCommand, type CommandOutcome } from '../commands/respond.js';
import { newObjectAccess, type FoundParent } from '@portal/commands';
import { createObject, type NewObject } from '../commands/create-object.js';
import { HttpProblem } from '../http/problem.js';
import { parseInput } from '../http/validate.js';
import { pendingUploadPlan } from './upload-plan.js';
import { uploadDescriptorOf } from './upload-descriptor.js';

function metadataOf(body: CreateItemBody): ItemMetadata {
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

/** A new item with its multipart upload; the single create's. */
export async function runCreateItem(
  deps: ApiDependencies,
  req: Request,
  caller: Caller,
  body: CreateItemBody,
): Promise<{ id: string; outcome: CommandOutcome; descriptor: UploadDescriptor }> {
  if (body.parentId === undefined) {
    throw new HttpProblem(
      400,
      'parentId: is required: an item lives in a collection or a catalog',
      'VALIDATION_FAILED',
    );
  }
  const now = deps.now();
  const { id, outcome, upload } = await createObject(deps, req, caller, 'item', body.parentId, (place) =>
    appendNewItem(deps, req, caller, body, place, now),
  );
  return { id, outcome, descriptor: await uploadDescriptorOf(deps, id, upload, now) };
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
  const id = deps.newId();
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
      metadata: metadataOf(body),
      upload,
      parent: parent?.lookup ?? null,
      access: newObjectAccess(caller, body.visibility),
    },
  };
}

export function createItem(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const body = parseInput(createItemBodySchema, req.body, 'item');
    const caller = await commandCaller(deps, req);
    const { id, outcome, descriptor } = await runCreateItem(deps, req, caller, body);
    res.setHeader('Location', `/api/v1/portal/items/${id}`);
    await respondToCommand(deps, req, res, outcome, { status: 201, body: descriptor });
  };
}
