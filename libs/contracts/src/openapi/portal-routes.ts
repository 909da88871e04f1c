import {
  changeVisibilityBodySchema,
  shareBodySchema,
  shareListSchema,
  shareSchema,
  visibilityResultSchema,
} from '../access.js';
import {
  catalogPageSchema,
  listCatalogsQuerySchema,
  catalogRecordSchema,
  createCatalogBodySchema,
  deleteCatalogsQuerySchema,
} from '../catalogs.js';
import { collectionRecordSchema, createCollectionBodySchema } from '../collections.js';
import { createdObjectSchema, deletedObjectsSchema } from '../common.js';
import { createItemAnswerSchema, createItemBodySchema } from '../items.js';
import {
  deletePortalItemQuerySchema,
  movePortalItemBodySchema,
  portalItemListQuerySchema,
  portalItemPageSchema,
  portalItemRecordSchema,
  updatePortalItemBodySchema,
} from '../portal-items.js';
import { portalItemQuerySchema } from '../history.js';
import { commandResponses, type ErrorStatus, type Route } from './route.js';

// No 404: a create has no `{id}` in its path, and an unknown parent is a conflict (409 PARENT_NOT_FOUND).
const createErrors: readonly ErrorStatus[] = [400, 401, 403, 409, 413, 415, 503];
const changeErrors: readonly ErrorStatus[] = [400, 401, 403, 404, 409, 412, 413, 415, 503];
const readErrors: readonly ErrorStatus[] = [400, 401, 404, 503];
const listErrors: readonly ErrorStatus[] = [400, 401, 503];

const createNote =
  "Answers once the new object is projected, so the next read sees it. At root level the object belongs to the active organization and needs the editor role there; below a parent it belongs to the parent's organization and needs edit rights on the parent (403 otherwise; 401 without credentials). `visibility` is `org` unless given. A `parentId` that names no object, a deleted one or one the caller cannot see answers 409 `PARENT_NOT_FOUND`; a parent of the wrong kind 409 `INVALID_PARENT_KIND`; a tree too deep 409 `DEPTH_EXCEEDED`.";

/** Said once for every command on an existing object. */
const accessNote =
  'An object the caller cannot see answers 404 like an unknown id; one they see but may not change 403 (401 without credentials).';

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
    summary: 'Create an item and start its upload, or register its assets by href',
    description: `An item's parent is a collection or a catalog. With \`assets\` (assets registered by href, even \`{}\`), the item has no upload: it is \`ready\` at once and the answer is \`{portalItemId}\`; \`size\`, \`partSize\`, \`fileName\` and \`contentType\` then answer 400. Otherwise the item starts as \`uploading\`; the descriptor offers one presigned URL per part (with \`size\`, the first 1,000 parts — every part up to 62.5 GiB in default parts; without, part 1; \`POST .../upload/urls\` gives more). PUT each part's bytes to its URL, keep each answer's \`ETag\`, then \`POST .../upload/complete\`. Parts are \`partSize\` bytes (the last may be smaller; at least 5 MiB otherwise). A \`size\` that would need more than 10,000 parts, or no \`parentId\`, answers 400. Object storage down answers 503 and records nothing. ${createNote}`,
    tag: 'items',
    headers: ['IdempotencyKey', 'Prefer'],
    body: createItemBodySchema,
    responses: commandResponses(
      201,
      'The item was created: upload the file in parts (the upload descriptor), or, with `assets`, it is ready (the created object).',
      createItemAnswerSchema,
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
      'Tombstones each listed catalog, all or none: every catalog is checked before any is deleted, and one refusal deletes nothing. A catalog that does not exist or that the caller cannot see answers 404; one they see but may not change 403 (401 without credentials); a non-empty catalog without `recursive=true` 409 `NOT_EMPTY`. Edit rights on a catalog cover everything below it.',
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
      'Catalogs, collections and items alike. `linksPortalItems` summarises the objects the links point to. With `asOf`, the object as it was, rebuilt from its events (docs/history.md): needs read access to the object now; before its creation, after its deletion or past its last revision 404; a malformed `asOf` 400.',
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    query: portalItemQuerySchema,
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
    description: `Title, description, links, and the fields of the kind (license, keywords, extent for collections; \`assets\` for items: a merge patch of the assets registered by href, an object adding or replacing a key, \`null\` removing it). Needs edit rights. ${accessNote}`,
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
    description: `A tombstone: reads answer 404 afterwards, the history remains. A non-empty container needs \`recursive=true\`, else 409 \`NOT_EMPTY\`; edit rights on it cover everything below it. ${accessNote}`,
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
    description: `Moves the object and everything below it. Needs edit rights on the object and on the new parent, or the editor role in the object's organization to move it to the root level. ${accessNote} A new parent that names no object, a deleted one or one the caller cannot see answers 409 \`PARENT_NOT_FOUND\`; a parent of another organization 409 \`ORGANIZATION_MISMATCH\` (objects never change organization); a move below itself 409 \`CYCLE\`, a parent of the wrong kind 409 \`INVALID_PARENT_KIND\`, a tree too deep 409 \`DEPTH_EXCEEDED\`.`,
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    headers: ['IfMatch', 'Prefer'],
    body: movePortalItemBodySchema,
    responses: commandResponses(200, 'The object was moved.', createdObjectSchema),
    errors: changeErrors,
  },
  {
    method: 'put',
    path: '/api/v1/portal/items/{id}/visibility',
    operationId: 'changeVisibility',
    summary: 'Set who may see a portal object',
    description: `\`private\`, \`org\` or \`public\`; the narrowest visibility on the path from the root level applies, so it also narrows everything below. Needs the organization's admin or owner role, or to be the object's creator. ${accessNote} The visibility it already has records nothing.`,
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    headers: ['IfMatch', 'Prefer'],
    body: changeVisibilityBodySchema,
    responses: commandResponses(200, 'The visibility is set.', visibilityResultSchema),
    errors: changeErrors,
  },
  {
    method: 'get',
    path: '/api/v1/portal/items/{id}/shares',
    operationId: 'listShares',
    summary: "List a portal object's shares",
    description: `The object's own shares, read from its event stream (a share just given is listed at once); shares of its ancestors apply to it too. Who may see an object is itself access information: listing needs the same rights as sharing (admin, owner or creator). ${accessNote}`,
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    responses: { 200: { description: 'The shares.', schema: shareListSchema, headers: ['ETag'] } },
    errors: [400, 401, 403, 404, 503],
  },
  {
    method: 'post',
    path: '/api/v1/portal/items/{id}/shares',
    operationId: 'shareObject',
    summary: 'Share a portal object',
    description: `Gives a user or an organization \`viewer\` or \`editor\` rights on the object and everything below it; shares add to what the visibility gives. A share to an organization gives its members read access, and with \`editor\` its editors, admins and owners edit rights. A second share to the same principal replaces the first. Needs the organization's admin or owner role, or to be the object's creator. ${accessNote} A principal that does not exist answers 400.`,
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    headers: ['IfMatch', 'Prefer'],
    body: shareBodySchema,
    responses: {
      201: {
        description: 'The share was given.',
        schema: shareSchema,
        headers: ['XEventPosition', 'ETag', 'Location'],
      },
      200: {
        description:
          "The principal's earlier share was replaced, or already was this one (nothing recorded).",
        schema: shareSchema,
        headers: ['XEventPosition', 'ETag'],
      },
      202: {
        description: 'The share was recorded; answered to `Prefer: respond-async` before it is projected.',
        schema: shareSchema,
        headers: ['XEventPosition', 'PreferenceApplied'],
      },
    },
    errors: changeErrors,
  },
  {
    method: 'delete',
    path: '/api/v1/portal/items/{id}/shares/{type}/{principalId}',
    operationId: 'unshareObject',
    summary: 'Remove a share',
    description: `Needs the organization's admin or owner role, or to be the object's creator. ${accessNote} A share that does not exist answers 404.`,
    tag: 'items',
    pathParameters: ['PortalObjectId', 'PrincipalType', 'PrincipalId'],
    headers: ['IfMatch', 'Prefer'],
    responses: {
      204: { description: 'The share was removed.', headers: ['XEventPosition', 'ETag'] },
      202: {
        description: 'The removal was recorded; answered to `Prefer: respond-async` before it is projected.',
        headers: ['XEventPosition', 'PreferenceApplied'],
      },
    },
    errors: [400, 401, 403, 404, 409, 412, 503],
  },
];
