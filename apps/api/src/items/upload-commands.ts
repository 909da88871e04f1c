import type { Request, RequestHandler } from 'express';
import { completeUploadBodySchema, uploadUrlsBodySchema, type UploadUrls } from '@portal/contracts';
import {
  changeObject,
  loadObject,
  placementOf,
  requireAccessTo,
  requireFound,
  type LoadedObject,
  type Placement,
} from '@portal/commands';
import {
  checkPartUrlRequest,
  DomainError,
  portalObjectDecider,
  type Caller,
  type Decider,
  type ItemCommand,
  type LiveItem,
  uploadOf,
  type PortalObjectCommand,
  type PortalObjectEvent,
  type PortalObjectState,
} from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandCaller } from '../commands/command-caller.js';
import { commandContextOf } from '../commands/command-context.js';
import { metadataOf } from '../commands/metadata.js';
import { respondToCommand, type CommandOutcome } from '../commands/respond.js';
import { expectedRevisionFrom } from '../http/consistency.js';
import { idParamsSchema } from '../http/params.js';
import { parseInput } from '../http/validate.js';
import { urlLifetimeSeconds } from './upload-plan.js';

/**
 * The item an upload request is about, once the caller is known to have edit rights on it: uploading
 * is changing it. An item the caller cannot read answers 404 like an unknown one.
 */
async function loadEditableItem(
  deps: ApiDependencies,
  caller: Caller,
  id: string,
): Promise<{ object: LoadedObject; placement: Placement }> {
  const object = requireFound(await loadObject(deps.eventStore, id, ['item']), `item ${id}`);
  const placement = await placementOf(deps.eventStore, object);
  requireAccessTo(caller, placement, 'edit', `item ${id}`);
  return { object, placement };
}

/** The item behind a command that `decide` accepted: only a live item gets that far. */
function liveItemOf(id: string, state: PortalObjectState): LiveItem {
  if (state.status !== 'live' || state.kind !== 'item') {
    throw new DomainError('NOT_FOUND', `item ${id} not found`);
  }
  return state;
}

type ObjectCommand = PortalObjectCommand | ItemCommand;

/**
 * The portal-object decider, for a client: the cleanup it allows for a deleted item's open upload is
 * the sweep's to record (it aborts in S3 too); a client gets 404 and nothing is written.
 */
const clientItemDecider: Decider<ObjectCommand, PortalObjectEvent, PortalObjectState> = {
  ...portalObjectDecider,
  decide: (command, state) => {
    const events = portalObjectDecider.decide(command, state);
    liveItemOf(command.data.id, state);
    return events;
  },
};

/**
 * An upload command through the command library. Anything outside the event store (the object store,
 * the queue) happens after the append: a refused or conflicting command then touches nothing, and the
 * recorded fact is what the sweep and the worker act on if that later step fails.
 */
async function runUploadCommand(
  deps: ApiDependencies,
  req: Request,
  id: string,
  command: (object: LoadedObject, ancestorDeleted: boolean) => ItemCommand,
): Promise<{ outcome: CommandOutcome; item: LiveItem }> {
  const expectedRevision = expectedRevisionFrom(req);
  const result = await changeObject(commandContextOf(deps), {
    id,
    kinds: ['item'],
    caller: await commandCaller(deps, req),
    action: 'edit',
    metadata: metadataOf(req, deps.now()),
    ...(expectedRevision === undefined ? {} : { expectedRevision }),
    decider: clientItemDecider,
    command: ({ object, placement }) => command(object, placement.ancestorDeleted),
  });
  return { outcome: result, item: liveItemOf(id, result.before.state) };
}

/**
 * `POST .../upload/complete`: records the request, then hands it to the upload worker. A repeated request
 * while the item is `processing` records nothing and enqueues the same job id again, which also recovers
 * a completion whose job was lost (the API died between the append and the enqueue, or Redis restarted).
 */
export function completeUpload(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParamsSchema, req.params, 'path');
    const body = parseInput(completeUploadBodySchema, req.body ?? {}, 'body');
    const { outcome, item } = await runUploadCommand(deps, req, id, (object, ancestorDeleted) => ({
      type: 'RequestUploadCompletion',
      data: { id: object.id, parts: body.parts ?? null, ancestorDeleted, now: deps.now().toISOString() },
    }));
    const { uploadId } = uploadOf(item);
    try {
      await deps.uploadQueue.enqueueCompletion({
        itemId: id,
        uploadId,
        requestId: typeof req.id === 'string' ? req.id : null,
      });
    } catch (error) {
      // The request is recorded; the worker's sweep enqueues completions left without a job.
      req.log.warn({ err: error, itemId: id }, 'completion recorded but not enqueued; the sweep will retry');
    }
    await respondToCommand(deps, req, res, outcome, {
      status: 202,
      body: { portalItemId: id, uploadId, status: 'processing' },
    });
  };
}

/**
 * `POST .../upload/abort`: the item ends `aborted` (a completion racing it loses on the expected revision),
 * then the object store forgets the parts. Should that fail, the bucket's lifecycle rule removes them.
 */
export function abortUpload(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParamsSchema, req.params, 'path');
    const { outcome, item } = await runUploadCommand(deps, req, id, (object, ancestorDeleted) => ({
      type: 'AbortUpload',
      data: { id: object.id, ancestorDeleted },
    }));
    const upload = uploadOf(item);
    await deps.objectStore.abortMultipartUpload(upload.key, upload.uploadId).catch((error: unknown) => {
      req.log.warn(
        { err: error, itemId: id },
        'upload aborted but its parts not discarded; the lifecycle rule will',
      );
    });
    await respondToCommand(deps, req, res, outcome, {
      status: 200,
      body: { portalItemId: id, uploadId: upload.uploadId, status: 'aborted' },
    });
  };
}

/** `POST .../upload/urls`: fresh presigned URLs for parts of an upload that is still open. */
export function freshUploadUrls(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParamsSchema, req.params, 'path');
    const { partNumbers } = parseInput(uploadUrlsBodySchema, req.body, 'body');
    const { object, placement } = await loadEditableItem(deps, await commandCaller(deps, req), id);
    const now = deps.now();
    const item = checkPartUrlRequest(object.state, {
      id,
      partNumbers,
      ancestorDeleted: placement.ancestorDeleted,
      now: now.toISOString(),
    });
    const lifetime = urlLifetimeSeconds(deps.config, item.upload, now);
    const answer: UploadUrls = {
      portalItemId: id,
      uploadId: item.upload.uploadId,
      urlsExpireAt: new Date(now.getTime() + lifetime * 1000).toISOString(),
      partUrls: await deps.objectStore.presignUploadParts(
        item.upload.key,
        item.upload.uploadId,
        partNumbers,
        lifetime,
      ),
    };
    res.json(answer);
  };
}
