import {
  catalogPageSchema,
  listCatalogsQuerySchema,
  catalogRecordSchema,
  createCatalogBodySchema,
  deleteCatalogsQuerySchema,
} from '../catalogs.js';
import { collectionRecordSchema, createCollectionBodySchema } from '../collections.js';
import { createdObjectSchema, deletedObjectsSchema } from '../common.js';
import { createItemBodySchema, uploadDescriptorSchema } from '../items.js';
import {
  deletePortalItemQuerySchema,
  movePortalItemBodySchema,
  portalItemListQuerySchema,
  portalItemPageSchema,
  portalItemRecordSchema,
  updatePortalItemBodySchema,
} from '../portal-items.js';
import { commandResponses, type ErrorStatus, type Route } from './route.js';

// No 404: a create has no `{id}` in its path, and an unknown parent is a conflict (409 PARENT_NOT_FOUND).
const createErrors: readonly ErrorStatus[] = [400, 401, 403, 409, 413, 415, 503];
const changeErrors: readonly ErrorStatus[] = [400, 401, 403, 404, 409, 412, 413, 415, 503];
const readErrors: readonly ErrorStatus[] = [400, 401, 404, 503];
const listErrors: readonly ErrorStatus[] = [400, 401, 503];

const createNote =
  'Answers once the new object is projected, so the next read sees it. A `parentId` that names no object or a deleted one answers 409 `PARENT_NOT_FOUND`; a parent of the wrong kind 409 `INVALID_PARENT_KIND`; a tree too deep 409 `DEPTH_EXCEEDED`.';

export const portalRoutes: readonly Route[] = [
  {
    method: 'post',
    path: '/api/v1/portal/catalogs/create',
    operationId: 'createCatalog',
    summary: 'Create a catalog',
    description: `A catalog's parent is a catalog, or none for the root level. ${createNote}`,
    tag: 'catalogs',
    headers: ['IdempotencyKey', 'Prefer'],
    body: createCatalogBodySchema,
    responses: commandResponses(201, 'The catalog was created.', createdObjectSchema),
    errors: createErrors,
  },
  {
    method: 'post',
    path: '/api/v1/portal/collections/create',
    operationId: 'createCollection',
    summary: 'Create a collection',
    description: `A collection's parent is a catalog, or none for the root level. ${createNote}`,
    tag: 'collections',
    headers: ['IdempotencyKey', 'Prefer'],
    body: createCollectionBodySchema,
    responses: commandResponses(201, 'The collection was created.', createdObjectSchema),
    errors: createErrors,
  },
  {
    method: 'post',
    path: '/api/v1/portal/items/create',
    operationId: 'createItem',
    summary: 'Create an item and start its upload',
    description: `An item's parent is a collection or a catalog. The item starts as \`uploading\`; the descriptor offers one presigned URL per part (with \`size\`, the first 1,000 parts — every part up to 62.5 GiB in default parts; without, part 1; \`POST .../upload/urls\` gives more). PUT each part's bytes to its URL, keep each answer's \`ETag\`, then \`POST .../upload/complete\`. Parts are \`partSize\` bytes (the last may be smaller; at least 5 MiB otherwise). A \`size\` that would need more than 10,000 parts, or no \`parentId\`, answers 400. Object storage down answers 503 and records nothing. ${createNote}`,
    tag: 'items',
    headers: ['IdempotencyKey', 'Prefer'],
    body: createItemBodySchema,
    responses: commandResponses(
      201,
      'The item was created; upload the file in parts.',
      uploadDescriptorSchema,
    ),
    errors: [...createErrors, 502],
  },
  {
    method: 'get',
    path: '/api/v1/portal/catalogs/',
    operationId: 'listCatalogs',
    summary: 'List catalogs',
    description: 'Every catalog the caller may see, at any level, oldest first, in pages.',
    tag: 'catalogs',
    query: listCatalogsQuerySchema,
    headers: ['XMinPosition'],
    responses: { 200: { description: 'A page of catalogs.', schema: catalogPageSchema } },
    errors: listErrors,
  },
  {
    method: 'delete',
    path: '/api/v1/portal/catalogs/',
    operationId: 'deleteCatalogs',
    summary: 'Delete catalogs',
    description:
      'Tombstones each listed catalog; an unknown id answers 404, a non-empty catalog without `recursive=true` 409 `NOT_EMPTY`.',
    tag: 'catalogs',
    query: deleteCatalogsQuerySchema,
    headers: ['Prefer'],
    responses: {
      200: {
        description: 'The catalogs were deleted.',
        schema: deletedObjectsSchema,
        headers: ['XEventPosition'],
      },
      202: {
        description:
          'The deletes were recorded; answered to `Prefer: respond-async` before they are projected.',
        schema: deletedObjectsSchema,
        headers: ['XEventPosition', 'PreferenceApplied'],
      },
    },
    errors: [400, 401, 403, 404, 409, 503],
  },
  {
    method: 'get',
    path: '/api/v1/portal/catalogs/{id}',
    operationId: 'getCatalog',
    summary: 'Read a catalog',
    tag: 'catalogs',
    pathParameters: ['PortalObjectId'],
    headers: ['XMinPosition'],
    responses: { 200: { description: 'The catalog.', schema: catalogRecordSchema, headers: ['ETag'] } },
    errors: readErrors,
  },
  {
    method: 'get',
    path: '/api/v1/collections/{id}',
    operationId: 'getCollection',
    summary: 'Read a collection',
    description: 'The collection record of the contract (STAC-like). This path has no `portal` segment.',
    tag: 'collections',
    pathParameters: ['PortalObjectId'],
    headers: ['XMinPosition'],
    responses: { 200: { description: 'The collection.', schema: collectionRecordSchema, headers: ['ETag'] } },
    errors: readErrors,
  },
  {
    method: 'get',
    path: '/api/v1/portal/items/',
    operationId: 'listPortalItems',
    summary: 'List portal items',
    description:
      'Portal objects of every kind the caller may see, oldest first, in pages; `kind`, `status` and `parentId` narrow the list.',
    tag: 'items',
    query: portalItemListQuerySchema,
    headers: ['XMinPosition'],
    responses: { 200: { description: 'A page of portal items.', schema: portalItemPageSchema } },
    errors: listErrors,
  },
  {
    method: 'get',
    path: '/api/v1/portal/items/{id}',
    operationId: 'getPortalItem',
    summary: 'Read any portal object as a portal item',
    description:
      'Catalogs, collections and items alike. `linksPortalItems` summarises the objects the links point to.',
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    headers: ['XMinPosition'],
    responses: {
      200: { description: 'The portal item.', schema: portalItemRecordSchema, headers: ['ETag'] },
    },
    errors: readErrors,
  },
  {
    method: 'patch',
    path: '/api/v1/portal/items/{id}',
    operationId: 'updatePortalItem',
    summary: 'Change a portal object',
    description:
      'Title, description, links, and the fields of the kind (license, keywords, extent for collections).',
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    headers: ['IfMatch', 'Prefer'],
    body: updatePortalItemBodySchema,
    responses: commandResponses(200, 'The object was changed.', createdObjectSchema),
    errors: changeErrors,
  },
  {
    method: 'delete',
    path: '/api/v1/portal/items/{id}',
    operationId: 'deletePortalItem',
    summary: 'Delete a portal object',
    description:
      'A tombstone: reads answer 404 afterwards, the history remains. A non-empty container needs `recursive=true`, else 409 `NOT_EMPTY`.',
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    query: deletePortalItemQuerySchema,
    headers: ['IfMatch', 'Prefer'],
    responses: commandResponses(200, 'The object was deleted.', deletedObjectsSchema),
    errors: [400, 401, 403, 404, 409, 412, 503],
  },
  {
    method: 'post',
    path: '/api/v1/portal/items/{id}/move',
    operationId: 'movePortalItem',
    summary: 'Move a portal object',
    description:
      'Moves the object and everything below it. An unknown `{id}` answers 404; a new parent that names no object or a deleted one answers 409 `PARENT_NOT_FOUND`; a move below itself 409 `CYCLE`, a parent of the wrong kind 409 `INVALID_PARENT_KIND`, a tree too deep 409 `DEPTH_EXCEEDED`.',
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    headers: ['IfMatch', 'Prefer'],
    body: movePortalItemBodySchema,
    responses: commandResponses(200, 'The object was moved.', createdObjectSchema),
    errors: changeErrors,
  },
];
