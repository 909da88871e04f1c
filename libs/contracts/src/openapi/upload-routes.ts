import {
  completeUploadBodySchema,
  uploadStatusSchema,
  uploadUrlsBodySchema,
  uploadUrlsSchema,
} from '../items.js';
import { uploadAcceptedSchema } from '../uploads.js';
import type { Route } from './route.js';

const uploadCommandErrors = [400, 401, 403, 404, 409, 412, 413, 415, 502, 503] as const;

/** The upload lifecycle of an item (README, Uploading a file), beyond the descriptor a create answers. */
export const uploadRoutes: readonly Route[] = [
  {
    method: 'get',
    path: '/api/v1/portal/items/{id}/upload',
    operationId: 'getUpload',
    summary: "Where an item's upload stands",
    description:
      'Status, the parts the object store holds while the upload is open (to resume after a crash: upload only the missing ones), and the expiry.',
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    headers: ['XMinPosition'],
    responses: { 200: { description: 'The upload.', schema: uploadStatusSchema } },
    errors: [400, 401, 404, 502, 503],
  },
  {
    method: 'post',
    path: '/api/v1/portal/items/{id}/upload/complete',
    operationId: 'completeUpload',
    summary: 'Finish an upload',
    description:
      'Records the request (the item becomes `processing`) and hands it to the upload worker, which assembles the parts, verifies the object and makes the item `ready`, or `failed` with a `statusMessage` saying what to fix (the upload stays open: fix it and complete again). Without `parts`, every part the object store holds is used. Repeating the request while `processing` is harmless. 409 `INVALID_STATE` when the upload already ended or expired.',
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    headers: ['IfMatch', 'Prefer'],
    body: completeUploadBodySchema,
    responses: {
      202: {
        description: 'Accepted; follow `GET .../upload` or the item until `ready` or `failed`.',
        schema: uploadAcceptedSchema,
        headers: ['XEventPosition', 'ETag'],
      },
    },
    errors: [...uploadCommandErrors],
  },
  {
    method: 'post',
    path: '/api/v1/portal/items/{id}/upload/abort',
    operationId: 'abortUpload',
    summary: 'Give up an upload',
    description:
      'The object store discards the parts and the item ends `aborted`. 409 `INVALID_STATE` while `processing` or once ended.',
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    headers: ['IfMatch', 'Prefer'],
    responses: {
      200: { description: 'Aborted.', schema: uploadAcceptedSchema, headers: ['XEventPosition', 'ETag'] },
    },
    errors: [400, 401, 403, 404, 409, 412, 502, 503],
  },
  {
    method: 'post',
    path: '/api/v1/portal/items/{id}/upload/urls',
    operationId: 'freshUploadUrls',
    summary: 'Fresh presigned URLs for parts',
    description:
      'For parts whose URLs expired, or for more parts when the create gave no `size`. At most 1,000 part numbers per request; never past the upload’s expiry.',
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    body: uploadUrlsBodySchema,
    responses: { 200: { description: 'The URLs.', schema: uploadUrlsSchema } },
    errors: [400, 401, 403, 404, 409, 413, 415, 503],
  },
  {
    method: 'get',
    path: '/api/v1/portal/items/{id}/assets/{assetId}',
    operationId: 'downloadAsset',
    summary: 'Download an asset',
    description:
      "An asset's `href`. Redirects to a presigned GET of the object that lives a few minutes (`DOWNLOAD_URL_TTL_SECONDS`), so the bytes never pass through the API.",
    tag: 'items',
    pathParameters: ['PortalObjectId', 'AssetId'],
    responses: { 302: { description: 'Redirect to the file.', headers: ['Location'] } },
    errors: [400, 401, 404, 503],
  },
];
