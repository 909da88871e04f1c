import type { BatchCommand } from '@portal/contracts';
import type { CreateEntry } from '@portal/commands';
import { portalObjectDecider, type Caller, type EventMetadata, type UploadPlan } from '@portal/domain';
import type { Logger } from '@portal/platform';
import type { ApiDependencies } from '../dependencies.js';
import { catalogCommand } from '../catalogs/create-catalog.js';
import { collectionCommand, newCollectionId } from '../collections/create-collection.js';
import { itemCommand, newItemId, registerCommand } from '../items/create-item.js';
import { pendingUploadPlan } from '../items/upload-plan.js';
import { HttpProblem } from '../http/problem.js';

/** What a create of the bulk paths made: the new id, and an item's multipart upload. */
export interface MadeObject {
  readonly id: string;
  readonly upload?: UploadPlan;
}

/** Who creates, and what the events record about the request, for every create of one request. */
export interface CreateFrame {
  readonly caller: Caller;
  readonly metadata: EventMetadata;
  readonly now: Date;
  readonly log: Logger;
}

/**
 * One create of `POST /` or the NDJSON bulk endpoint as an entry of the command library's
 * `createObjects`, with the same rules as its single create. An item without a parent is refused here,
 * before anything is read, as the single create refuses it.
 */
export function createEntryOf(
  deps: ApiDependencies,
  frame: CreateFrame,
  command: BatchCommand,
): CreateEntry<MadeObject> {
  const { caller, metadata } = frame;
  switch (command.type) {
    case 'createCatalog': {
      const { body } = command;
      return {
        kind: 'catalog',
        parentId: body.parentId ?? null,
        caller,
        metadata,
        make: (parent) => {
          const id = deps.newId();
          return Promise.resolve({ made: { id }, command: catalogCommand(id, body, parent, caller) });
        },
      };
    }
    case 'createCollection': {
      const { body } = command;
      return {
        kind: 'collection',
        parentId: body.parentId ?? null,
        caller,
        metadata,
        make: async (parent) => {
          const id = await newCollectionId(deps, body, null);
          return { made: { id }, command: collectionCommand(id, body, parent, caller) };
        },
      };
    }
    case 'createItem':
      return itemEntry(deps, frame, command.body);
    default:
      return command satisfies never;
  }
}

/**
 * An item opens its multipart upload once its rules hold (decided once on the plan without an upload
 * id), so a refused create leaves nothing in the object store; an append refused afterwards aborts it.
 */
function itemEntry(
  deps: ApiDependencies,
  frame: CreateFrame,
  body: Extract<BatchCommand, { type: 'createItem' }>['body'],
): CreateEntry<MadeObject> {
  const { parentId } = body;
  if (parentId === undefined) {
    throw new HttpProblem(
      400,
      'parentId: is required: an item lives in a collection or a catalog',
      'VALIDATION_FAILED',
    );
  }
  const { caller, metadata, now, log } = frame;
  return {
    kind: 'item',
    parentId,
    caller,
    metadata,
    make: async (parent) => {
      const id = await newItemId(deps, body, null);
      // Registered by href: no upload to open, nothing to undo.
      if (body.assets !== undefined) {
        return { made: { id }, command: registerCommand(id, body, parent, caller, deps.newId) };
      }
      const pending = pendingUploadPlan(deps.config, id, body, now);
      const initial = portalObjectDecider.initialState;
      portalObjectDecider.decide(
        itemCommand(id, body, parent, caller, { ...pending, uploadId: '' }),
        initial,
      );
      const uploadId = await deps.objectStore.createMultipartUpload(pending.key, pending.contentType);
      const upload: UploadPlan = { ...pending, uploadId };
      return { made: { id, upload }, command: itemCommand(id, body, parent, caller, upload) };
    },
    undo: async ({ id, upload }) => {
      if (!upload) return;
      await deps.objectStore.abortMultipartUpload(upload.key, upload.uploadId).catch((error: unknown) => {
        log.warn(
          { err: error, itemId: id },
          'upload left open after a failed create; the bucket lifecycle rule aborts it',
        );
      });
    },
  };
}
