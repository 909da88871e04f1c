import { describe, it } from 'vitest';
import { createdByCreator, creator, given, liveParent, newId } from './decider-test-kit.js';
import { noItemMetadata, type ItemAsset, type ItemUploadStarted, type UploadPlan } from './item-events.js';
import type { PortalObjectDeleted } from './events.js';

const NOW = '2026-11-21T12:00:00.000Z';
const LATER = '2026-11-22T12:00:00.000Z';

function plan(overrides: Partial<UploadPlan> = {}): UploadPlan {
  return {
    uploadId: 'upload-1',
    bucket: 'portal-assets',
    key: 'items/x/scene.tif',
    partSize: 64 * 1024 ** 2,
    partCount: 2,
    size: 100 * 1024 ** 2,
    fileName: 'scene.tif',
    contentType: 'image/tiff',
    expiresAt: '2026-11-22T00:00:00.000Z',
    ...overrides,
  };
}

const noMetadata = noItemMetadata;

function started(id: string, parentId = newId()): ItemUploadStarted {
  return {
    type: 'ItemUploadStarted',
    data: {
      id,
      title: 'Scene',
      description: null,
      parentId,
      links: [],
      metadata: noMetadata,
      upload: plan(),
      ...createdByCreator,
    },
  };
}

const asset = (id: string): ItemAsset => ({
  id,
  bucket: 'portal-assets',
  key: 'items/x/scene.tif',
  size: 100 * 1024 ** 2,
  etag: '"abc-2"',
  contentType: 'image/tiff',
  fileName: 'scene.tif',
});

const requested = (id: string) =>
  ({ type: 'UploadCompletionRequested', data: { id, uploadId: 'upload-1', parts: null } }) as const;

describe('creating an item', () => {
  it('starts its upload under a collection', () => {
    const id = newId();
    const parent = liveParent('collection');
    given()
      .when({
        type: 'CreateItem',
        data: {
          id,
          title: 'Scene',
          description: null,
          links: [],
          metadata: noMetadata,
          upload: plan(),
          stacId: null,
          parent,
          access: creator,
        },
      })
      .then([started(id, parent.id)]);
  });

  it("belongs to its parent's organization, with the visibility its creator gives", () => {
    const id = newId();
    const otherOrgId = newId();
    const parent = liveParent('catalog', { orgId: otherOrgId });
    given()
      .when({
        type: 'CreateItem',
        data: {
          id,
          title: 'Scene',
          description: null,
          links: [],
          metadata: noMetadata,
          upload: plan(),
          stacId: null,
          parent,
          access: { ...creator, visibility: 'private' },
        },
      })
      .then([
        {
          type: 'ItemUploadStarted',
          data: { ...started(id, parent.id).data, orgId: otherOrgId, visibility: 'private' },
        },
      ]);
  });

  it('refuses the root level and a parent item', () => {
    const data = {
      id: newId(),
      title: 'Scene',
      description: null,
      links: [],
      metadata: noMetadata,
      upload: plan(),
      stacId: null,
      access: creator,
    };
    given()
      .when({ type: 'CreateItem', data: { ...data, parent: null } })
      .thenFails('INVALID_PARENT_KIND', /needs a parent collection or catalog/);
    given()
      .when({ type: 'CreateItem', data: { ...data, parent: liveParent('item') } })
      .thenFails('INVALID_PARENT_KIND');
  });

  it('refuses a missing parent', () => {
    const data = {
      id: newId(),
      title: 'Scene',
      description: null,
      links: [],
      metadata: noMetadata,
      upload: plan(),
      stacId: null,
      access: creator,
    };
    given()
      .when({ type: 'CreateItem', data: { ...data, parent: { found: false, id: newId() } } })
      .thenFails('PARENT_NOT_FOUND');
  });
});

describe('requesting completion', () => {
  const complete = (id: string, now = NOW) =>
    ({ type: 'RequestUploadCompletion', data: { id, parts: null, ancestorDeleted: false, now } }) as const;

  it('moves an uploading item to processing', () => {
    const id = newId();
    given(started(id))
      .when(complete(id))
      .then([requested(id)]);
  });

  it('records nothing for a repeated request while processing', () => {
    const id = newId();
    given(started(id), requested(id)).when(complete(id)).then([]);
  });

  it('refuses a repeated request naming other parts while processing', () => {
    const id = newId();
    const parts = [{ partNumber: 1, etag: '"a"' }];
    const withParts = {
      type: 'RequestUploadCompletion',
      data: { id, parts, ancestorDeleted: false, now: NOW },
    } as const;
    given(started(id), requested(id))
      .when(withParts)
      .thenFails('INVALID_STATE', /with other parts/);
    given(started(id), { ...requested(id), data: { ...requested(id).data, parts } })
      .when(withParts)
      .then([]);
  });

  it('accepts a new attempt after a failure', () => {
    const id = newId();
    const failed = {
      type: 'UploadFailed',
      data: { id, uploadId: 'upload-1', statusMessage: 'part 2 missing' },
    } as const;
    given(started(id), requested(id), failed)
      .when(complete(id))
      .then([requested(id)]);
  });

  it('refuses an upload that is complete, aborted or expired', () => {
    const id = newId();
    const done = [
      { type: 'AssetAttached', data: { id, asset: asset(newId()) } },
      { type: 'UploadCompleted', data: { id, uploadId: 'upload-1', assetId: newId() } },
    ] as const;
    given(started(id), requested(id), ...done)
      .when(complete(id))
      .thenFails('INVALID_STATE', /is ready: its upload is complete/);
    given(started(id), { type: 'UploadAborted', data: { id, uploadId: 'upload-1' } })
      .when(complete(id))
      .thenFails('INVALID_STATE', /aborted; create the item again/);
  });

  it('refuses an upload past its expiry', () => {
    const id = newId();
    given(started(id))
      .when(complete(id, LATER))
      .thenFails('INVALID_STATE', /expired at/);
  });

  it('answers not found for a catalog, a deleted item and one under a deleted ancestor', () => {
    const id = newId();
    const deleted: PortalObjectDeleted = {
      type: 'PortalObjectDeleted',
      data: { id, kind: 'item', recursive: false },
    };
    given(started(id), deleted)
      .when(complete(id))
      .thenFails('NOT_FOUND', /was deleted/);
    given(started(id))
      .when({ type: 'RequestUploadCompletion', data: { id, parts: null, ancestorDeleted: true, now: NOW } })
      .thenFails('NOT_FOUND', /deleted with an ancestor/);
  });
});

describe('the worker attaching the asset', () => {
  it('appends AssetAttached and UploadCompleted once', () => {
    const id = newId();
    const assetId = newId();
    const attach = {
      type: 'AttachUploadedAsset',
      data: { id, uploadId: 'upload-1', asset: asset(assetId) },
    } as const;
    const events = [
      { type: 'AssetAttached', data: { id, asset: asset(assetId) } },
      { type: 'UploadCompleted', data: { id, uploadId: 'upload-1', assetId } },
    ] as const;
    given(started(id), requested(id))
      .when(attach)
      .then([...events]);
    // A retried job after the first attempt appended: nothing more.
    given(started(id), requested(id), ...events)
      .when(attach)
      .then([]);
  });

  it('ignores a job for another upload or an item that is not processing', () => {
    const id = newId();
    const attach = (uploadId: string) =>
      ({ type: 'AttachUploadedAsset', data: { id, uploadId, asset: asset(newId()) } }) as const;
    given(started(id), requested(id)).when(attach('upload-2')).then([]);
    given(started(id)).when(attach('upload-1')).then([]);
  });

  it('records a failure only while processing', () => {
    const id = newId();
    const fail = {
      type: 'FailUpload',
      data: { id, uploadId: 'upload-1', statusMessage: 'part 2 of 2 is missing' },
    } as const;
    given(started(id), requested(id))
      .when(fail)
      .then([
        { type: 'UploadFailed', data: { id, uploadId: 'upload-1', statusMessage: 'part 2 of 2 is missing' } },
      ]);
    given(started(id)).when(fail).then([]);
  });
});

describe('aborting and expiring', () => {
  const abort = (id: string) => ({ type: 'AbortUpload', data: { id, ancestorDeleted: false } }) as const;
  const aborted = (id: string) => ({ type: 'UploadAborted', data: { id, uploadId: 'upload-1' } }) as const;

  it('aborts an open upload once', () => {
    const id = newId();
    given(started(id))
      .when(abort(id))
      .then([aborted(id)]);
    given(started(id), aborted(id)).when(abort(id)).then([]);
  });

  it('refuses to abort while processing', () => {
    const id = newId();
    given(started(id), requested(id))
      .when(abort(id))
      .thenFails('INVALID_STATE', /completion is under way/);
  });

  it('cleans up the open upload of a deleted item, once', () => {
    const id = newId();
    const deleted: PortalObjectDeleted = {
      type: 'PortalObjectDeleted',
      data: { id, kind: 'item', recursive: false },
    };
    given(started(id), deleted)
      .when(abort(id))
      .then([aborted(id)]);
    given(started(id), deleted, aborted(id)).when(abort(id)).thenFails('NOT_FOUND');
  });

  it('lets the system clean up the open upload of an item buried by a recursive delete above it', () => {
    const id = newId();
    given(started(id))
      .when({ type: 'AbortUpload', data: { id, ancestorDeleted: true } })
      .thenFails('NOT_FOUND', /deleted with an ancestor/);
    given(started(id))
      .when({ type: 'AbortUpload', data: { id, ancestorDeleted: true, cleanup: true } })
      .then([aborted(id)]);
  });

  it('expires an open upload only past its expiry', () => {
    const id = newId();
    const expire = (now: string) =>
      ({ type: 'ExpireUpload', data: { id, uploadId: 'upload-1', now } }) as const;
    given(started(id)).when(expire(NOW)).then([]);
    given(started(id))
      .when(expire(LATER))
      .then([{ type: 'UploadExpired', data: { id, uploadId: 'upload-1' } }]);
    given(started(id), requested(id)).when(expire(LATER)).then([]);
  });
});
