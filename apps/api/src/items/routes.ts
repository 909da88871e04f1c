import type { Router } from 'express';
import type { ApiDependencies } from '../dependencies.js';
import { idempotency } from '../http/idempotency.js';
import { apiRouter, route } from '../http/routes.js';
import { createItem } from './create-item.js';
import { abortUpload, completeUpload, freshUploadUrls } from './upload-commands.js';
import { downloadAsset, uploadStatus } from './upload-queries.js';

/** Item creation and the upload lifecycle (README, Uploading a file); reads of the item itself are portal item routes. */
export function itemRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/api/v1/portal/items/create', { post: [idempotency(deps.pool), createItem(deps)] });
  route(router, '/api/v1/portal/items/:id/upload', { get: uploadStatus(deps) });
  route(router, '/api/v1/portal/items/:id/upload/complete', { post: completeUpload(deps) });
  route(router, '/api/v1/portal/items/:id/upload/abort', { post: abortUpload(deps) });
  route(router, '/api/v1/portal/items/:id/upload/urls', { post: freshUploadUrls(deps) });
  route(router, '/api/v1/portal/items/:id/assets/:assetId', { get: downloadAsset(deps) });
  return router;
}
