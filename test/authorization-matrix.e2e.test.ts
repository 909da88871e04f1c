import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, apiKey, signIn, signUp, type Role, type SignedInUser } from './support/auth.js';
import { call, expectCommand, setDefaultCredential, type JsonResponse } from './support/http.js';
import { claimsFor, forgeJwt } from './support/tokens.js';
import { createItem, fileOf, uploadParts, waitForStatus } from './support/uploads.js';

/**
 * Every endpoint × every kind of caller, asserting the exact status (docs/identity.md). The rows are checked
 * against the OpenAPI document the API serves, so an endpoint added without a row fails this test.
 *
 * The organization under test is the owner's personal one; an admin, an editor and a viewer are its
 * members. The targets belong to it with visibility `org` and are shared with one outside user as
 * viewer. Mutating rows act on a fresh target per caller, so no row depends on another's outcome.
 */

const callerKinds = [
  'anonymous',
  'viewer',
  'editor',
  'admin',
  'owner',
  'otherOrgMember',
  'sharedWithUser',
  'expiredToken',
  'otherKeyToken',
  'algNoneToken',
  'revokedSession',
  'revokedApiKey',
] as const;
type CallerKind = (typeof callerKinds)[number];

const invalidCredentials: readonly CallerKind[] = [
  'expiredToken',
  'otherKeyToken',
  'algNoneToken',
  'revokedSession',
  'revokedApiKey',
];

/**
 * What an endpoint needs. `read`/`edit`/`manage` are rights on the target; `createBelow` is edit on the
 * parent; `createRoot` the editor role in the active organization; `orgAdmin` admin or owner there;
 * `signedIn` any valid credential; `open` nothing.
 */
type Rule =
  | 'open'
  | 'signedIn'
  | 'read'
  | 'edit'
  | 'manage'
  | 'createBelow'
  | 'createRoot'
  | 'orgAdmin'
  | 'orgAdminResource'
  | 'stacWrite';

/** The status each valid caller gets under a rule, given the status of success. */
function expectedStatus(rule: Rule, caller: CallerKind, success: number): number {
  if (invalidCredentials.includes(caller)) return 401;
  const outsider = caller === 'anonymous' || caller === 'otherOrgMember';
  switch (rule) {
    case 'open':
      return success;
    case 'signedIn':
      return caller === 'anonymous' ? 401 : success;
    case 'read':
      return outsider ? 404 : success;
    case 'edit':
      if (outsider) return 404;
      return caller === 'viewer' || caller === 'sharedWithUser' ? 403 : success;
    case 'manage':
      if (outsider) return 404;
      return ['viewer', 'sharedWithUser', 'editor'].includes(caller) ? 403 : success;
    case 'createBelow':
      if (caller === 'anonymous') return 401;
      // A parent the caller cannot see is reported as a missing one.
      if (caller === 'otherOrgMember') return 409;
      return caller === 'viewer' || caller === 'sharedWithUser' ? 403 : success;
    case 'createRoot':
      if (caller === 'anonymous') return 401;
      // Outsiders create in their own (personal) organization, where they are owners.
      return caller === 'viewer' ? 403 : success;
    case 'orgAdmin':
      if (caller === 'anonymous') return 401;
      return caller === 'viewer' || caller === 'editor' ? 403 : success;
    case 'stacWrite':
      // A STAC transaction: anonymous callers 401 before anything is looked up, then as `edit`.
      if (caller === 'anonymous') return 401;
      if (caller === 'otherOrgMember') return 404;
      return caller === 'viewer' || caller === 'sharedWithUser' ? 403 : success;
    case 'orgAdminResource':
      // Something of the organization's own (a webhook): other organizations' admins do not find it.
      if (caller === 'anonymous') return 401;
      if (caller === 'viewer' || caller === 'editor') return 403;
      return outsider || caller === 'sharedWithUser' ? 404 : success;
  }
}

interface Fixture {
  readonly owner: SignedInUser;
  readonly shared: SignedInUser;
  /** A catalog of the organization (visibility org), shared with `shared` as viewer. */
  readonly catalog: string;
  readonly catalogSlug: string;
  /** A collection inside it, and a ready item with one asset inside that. */
  readonly collection: string;
  readonly item: string;
  readonly assetHref: string;
  /** A webhook endpoint of the organization. */
  readonly webhook: string;
}

interface Request {
  readonly path: string;
  readonly body?: unknown;
}

interface Row {
  readonly method: string;
  /** The path as the OpenAPI document names it. */
  readonly template: string;
  readonly rule: Rule;
  readonly success: number;
  /** Builds the request; mutating rows create their own target here (as the owner). */
  readonly request: (fixture: Fixture) => Promise<Request> | Request;
  /** The status that counts, when it is not the response's own (a batch reports one per command). */
  readonly statusOf?: (response: JsonResponse) => number;
}

const catalogBody = (fields: Record<string, unknown> = {}) => ({
  title: `Matrix ${Math.random().toString(36).slice(2)}`,
  description: 'Made by the authorization matrix',
  links: [],
  ...fields,
});

async function ownerCall<T = Record<string, unknown>>(
  fixture: Fixture,
  method: string,
  path: string,
  body?: unknown,
): Promise<JsonResponse<T>> {
  return call<T>(method, path, { headers: fixture.owner.headers, ...(body === undefined ? {} : { body }) });
}

const webhookBody = { url: 'http://127.0.0.1:9/matrix-hook', eventTypes: ['*'] };

async function freshWebhook(fixture: Fixture): Promise<string> {
  const created = await ownerCall<{ id: string }>(fixture, 'POST', '/api/v1/webhooks', webhookBody);
  await expectCommand(created, 201, 'create webhook');
  return created.body.id;
}

/** A fresh catalog inside the shared catalog: the target of one mutating request. */
async function freshCatalog(fixture: Fixture): Promise<string> {
  const created = await ownerCall<{ portalItemId: string }>(
    fixture,
    'POST',
    '/api/v1/portal/catalogs/create',
    catalogBody({ parentId: fixture.catalog }),
  );
  await expectCommand(created, 201, 'create catalog');
  return created.body.portalItemId;
}

/** A fresh empty collection inside the shared catalog. */
async function freshCollection(fixture: Fixture): Promise<string> {
  const created = await ownerCall<{ portalItemId: string }>(
    fixture,
    'POST',
    '/api/v1/portal/collections/create',
    catalogBody({ parentId: fixture.catalog }),
  );
  await expectCommand(created, 201, 'create collection');
  return created.body.portalItemId;
}

const stacItemBody = {
  type: 'Feature',
  geometry: null,
  properties: { title: 'Matrix STAC item', datetime: '2024-01-01T00:00:00Z' },
  assets: { data: { href: 'https://example.org/matrix.tif' } },
};
const stacCollectionBody = { type: 'Collection', description: 'Made by the authorization matrix' };

async function freshItem(fixture: Fixture): Promise<string> {
  const created = await ownerCall<{ portalItemId: string }>(fixture, 'POST', '/api/v1/portal/items/create', {
    title: 'Matrix item',
    parentId: fixture.collection,
    links: [],
    size: 10,
  });
  await expectCommand(created, 201, 'create item');
  return created.body.portalItemId;
}

/** A search's status as a read of the fixture's item: 200 when it holds the item, else 404 (it is hidden). */
function searchFound(response: JsonResponse): number {
  if (response.status !== 200) return response.status;
  const features = (response.body as { features: { id: string }[] }).features;
  return features.some((feature) => feature.id === fixture.item) ? 200 : 404;
}

/** An aggregate's status as a read of the fixture's item: 200 when it counts the item, else 404 (hidden). */
function aggregateFound(response: JsonResponse): number {
  if (response.status !== 200) return response.status;
  const [total] = (response.body as { aggregations: { value?: unknown }[] }).aggregations;
  return total?.value === 1 ? 200 : 404;
}

/**
 * The STAC API: the fixture's org-visible objects are read like every other read (docs/stac.md); its
 * transactions change them with the portal's rights, anonymous callers answered 401 first.
 */
const stacRows: readonly Row[] = [
  {
    method: 'POST',
    template: '/api/v1/stac/collections',
    rule: 'createRoot',
    success: 201,
    request: () => ({ path: '/api/v1/stac/collections', body: stacCollectionBody }),
  },
  {
    method: 'PUT',
    template: '/api/v1/stac/collections/{collectionId}',
    rule: 'stacWrite',
    success: 204,
    request: async (f) => ({
      path: `/api/v1/stac/collections/${await freshCollection(f)}`,
      body: stacCollectionBody,
    }),
  },
  {
    method: 'PATCH',
    template: '/api/v1/stac/collections/{collectionId}',
    rule: 'stacWrite',
    success: 204,
    request: async (f) => ({
      path: `/api/v1/stac/collections/${await freshCollection(f)}`,
      body: { description: 'Patched by the matrix' },
    }),
  },
  {
    method: 'DELETE',
    template: '/api/v1/stac/collections/{collectionId}',
    rule: 'stacWrite',
    success: 204,
    request: async (f) => ({ path: `/api/v1/stac/collections/${await freshCollection(f)}` }),
  },
  {
    method: 'POST',
    template: '/api/v1/stac/collections/{collectionId}/items',
    rule: 'stacWrite',
    success: 201,
    request: (f) => ({ path: `/api/v1/stac/collections/${f.collection}/items`, body: stacItemBody }),
  },
  {
    method: 'PUT',
    template: '/api/v1/stac/collections/{collectionId}/items/{itemId}',
    rule: 'stacWrite',
    success: 204,
    request: async (f) => ({
      path: `/api/v1/stac/collections/${f.collection}/items/${await freshItem(f)}`,
      body: stacItemBody,
    }),
  },
  {
    method: 'PATCH',
    template: '/api/v1/stac/collections/{collectionId}/items/{itemId}',
    rule: 'stacWrite',
    success: 204,
    request: async (f) => ({
      path: `/api/v1/stac/collections/${f.collection}/items/${await freshItem(f)}`,
      body: { properties: { 'eo:cloud_cover': 1 } },
    }),
  },
  {
    method: 'DELETE',
    template: '/api/v1/stac/collections/{collectionId}/items/{itemId}',
    rule: 'stacWrite',
    success: 204,
    request: async (f) => ({
      path: `/api/v1/stac/collections/${f.collection}/items/${await freshItem(f)}`,
    }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/stac' }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/conformance',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/stac/conformance' }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/collections',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/stac/collections' }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/collections/{collectionId}',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/collections/${f.collection}` }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/queryables',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/stac/queryables' }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/collections/{collectionId}/queryables',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/collections/${f.collection}/queryables` }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/collections/{collectionId}/items',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/collections/${f.collection}/items` }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/collections/{collectionId}/items/{itemId}',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/collections/${f.collection}/items/${f.item}` }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/items/{itemId}',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/items/${f.item}` }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/search',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/search?ids=${f.item}` }),
    statusOf: searchFound,
  },
  {
    method: 'POST',
    template: '/api/v1/stac/search',
    rule: 'read',
    success: 200,
    // A read sent as a body: the session cookie needs no CSRF token for it.
    request: (f) => ({ path: '/api/v1/stac/search', body: { ids: [f.item] } }),
    statusOf: searchFound,
  },
  {
    method: 'GET',
    template: '/api/v1/stac/children',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/stac/children' }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/catalogs/{catalogId}',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/catalogs/${f.catalog}` }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/catalogs/{catalogId}/children',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/catalogs/${f.catalog}/children` }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/sortables',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/stac/sortables' }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/collection-queryables',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/stac/collection-queryables' }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/collection-sortables',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/stac/collection-sortables' }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/collections/{collectionId}/sortables',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/collections/${f.collection}/sortables` }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/aggregations',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/stac/aggregations' }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/collections/{collectionId}/aggregations',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/collections/${f.collection}/aggregations` }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/aggregate',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/aggregate?ids=${f.item}&aggregations=total_count` }),
    statusOf: aggregateFound,
  },
  {
    method: 'POST',
    template: '/api/v1/stac/aggregate',
    rule: 'read',
    success: 200,
    request: (f) => ({
      path: '/api/v1/stac/aggregate',
      body: { ids: [f.item], aggregations: ['total_count'] },
    }),
    statusOf: aggregateFound,
  },
  {
    method: 'GET',
    template: '/api/v1/stac/collections/{collectionId}/aggregate',
    rule: 'read',
    success: 200,
    request: (f) => ({
      path: `/api/v1/stac/collections/${f.collection}/aggregate?ids=${f.item}&aggregations=total_count`,
    }),
    statusOf: aggregateFound,
  },
  {
    method: 'POST',
    template: '/api/v1/stac/collections/{collectionId}/aggregate',
    rule: 'read',
    success: 200,
    request: (f) => ({
      path: `/api/v1/stac/collections/${f.collection}/aggregate`,
      body: { ids: [f.item], aggregations: ['total_count'] },
    }),
    statusOf: aggregateFound,
  },
  {
    method: 'GET',
    template: '/api/v1/stac/browse',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/stac/browse' }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/catalogs/{catalogId}/browse',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/catalogs/${f.catalog}/browse?kind=children` }),
  },
  {
    method: 'GET',
    template: '/api/v1/stac/collections/{collectionId}/browse',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/stac/collections/${f.collection}/browse` }),
  },
];

const rows: readonly Row[] = [
  // The service itself
  { method: 'GET', template: '/', rule: 'open', success: 200, request: () => ({ path: '/' }) },
  {
    method: 'POST',
    template: '/',
    rule: 'createRoot',
    success: 201,
    request: () => ({ path: '/', body: { commands: [{ type: 'createCatalog', body: catalogBody() }] } }),
    // The batch answers 200 (or 202) with one result per command; refusing the whole batch is for a bad caller.
    statusOf: (response) =>
      response.status === 200 || response.status === 202
        ? ((response.body as { results: { status: number }[] }).results[0]?.status ?? 0)
        : response.status,
  },
  { method: 'GET', template: '/health', rule: 'open', success: 200, request: () => ({ path: '/health' }) },
  {
    method: 'GET',
    template: '/health/ready',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/health/ready' }),
  },
  {
    method: 'GET',
    template: '/api/v1/openapi.json',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/openapi.json' }),
  },
  {
    method: 'GET',
    template: '/api/v1/docs',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/docs' }),
  },
  {
    method: 'GET',
    template: '/api/v1/users/me',
    rule: 'signedIn',
    success: 200,
    request: () => ({ path: '/api/v1/users/me' }),
  },
  {
    method: 'GET',
    template: '/api/v1/protected',
    rule: 'signedIn',
    success: 200,
    request: () => ({ path: '/api/v1/protected' }),
  },
  // Reads of the shared catalog and what is below it
  {
    method: 'GET',
    template: '/api/v1/portal/items/{id}',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/portal/items/${f.catalog}` }),
  },
  {
    method: 'GET',
    template: '/api/v1/portal/catalogs/{id}',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/portal/catalogs/${f.catalog}` }),
  },
  {
    method: 'GET',
    template: '/api/v1/collections/{id}',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/collections/${f.collection}` }),
  },
  {
    method: 'GET',
    template: '/api/v1/portal/items/{id}/upload',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/portal/items/${f.item}/upload` }),
  },
  {
    method: 'GET',
    template: '/api/v1/portal/items/{id}/assets/{assetId}',
    rule: 'read',
    success: 302,
    request: (f) => ({ path: new URL(f.assetHref).pathname }),
  },
  ...['/api/v1/browser', '/browser'].flatMap((prefix): Row[] => [
    {
      method: 'GET',
      template: `${prefix}/root`,
      rule: 'open',
      success: 200,
      request: () => ({ path: `${prefix}/root` }),
    },
    {
      method: 'GET',
      template: `${prefix}/nodes/{nodeId}/children`,
      rule: 'read',
      success: 200,
      request: (f) => ({ path: `${prefix}/nodes/${f.catalog}/children` }),
    },
    {
      method: 'GET',
      template: `${prefix}/nodes/{nodeId}/breadcrumbs`,
      rule: 'read',
      success: 200,
      request: (f) => ({ path: `${prefix}/nodes/${f.collection}/breadcrumbs` }),
    },
    {
      method: 'GET',
      template: `${prefix}/path/{path}`,
      rule: 'read',
      success: 200,
      request: (f) => ({ path: `${prefix}/path/${f.catalogSlug}` }),
    },
  ]),
  {
    method: 'GET',
    template: '/api/v1/portal/browser/',
    rule: 'open',
    success: 200,
    request: () => ({ path: '/api/v1/portal/browser/' }),
  },
  // Lists answer everyone; what they hold is filtered (see the leak tests below).
  ...['/api/v1/portal/catalogs/', '/api/v1/portal/items/', '/api/v1/portal/inventory/'].map((path): Row => ({
    method: 'GET',
    template: path,
    rule: 'open',
    success: 200,
    request: () => ({ path }),
  })),
  // Creates
  {
    method: 'POST',
    template: '/api/v1/portal/catalogs/create',
    rule: 'createBelow',
    success: 201,
    request: (f) => ({ path: '/api/v1/portal/catalogs/create', body: catalogBody({ parentId: f.catalog }) }),
  },
  {
    method: 'POST',
    template: '/api/v1/portal/collections/create',
    rule: 'createBelow',
    success: 201,
    request: (f) => ({
      path: '/api/v1/portal/collections/create',
      body: catalogBody({ parentId: f.catalog }),
    }),
  },
  {
    method: 'POST',
    template: '/api/v1/portal/items/create',
    rule: 'createBelow',
    success: 201,
    request: (f) => ({
      path: '/api/v1/portal/items/create',
      body: { title: 'Matrix item', parentId: f.collection, links: [], size: 10 },
    }),
  },
  // Changes to an existing object
  {
    method: 'PATCH',
    template: '/api/v1/portal/items/{id}',
    rule: 'edit',
    success: 200,
    request: async (f) => ({
      path: `/api/v1/portal/items/${await freshCatalog(f)}`,
      body: { title: 'Renamed by the matrix' },
    }),
  },
  {
    method: 'DELETE',
    template: '/api/v1/portal/items/{id}',
    rule: 'edit',
    success: 200,
    request: async (f) => ({ path: `/api/v1/portal/items/${await freshCatalog(f)}` }),
  },
  {
    method: 'DELETE',
    template: '/api/v1/portal/catalogs/',
    rule: 'edit',
    success: 200,
    request: async (f) => ({ path: `/api/v1/portal/catalogs/?ids=${await freshCatalog(f)}` }),
  },
  {
    method: 'POST',
    template: '/api/v1/portal/items/{id}/move',
    rule: 'edit',
    success: 200,
    request: async (f) => ({
      path: `/api/v1/portal/items/${await freshCatalog(f)}/move`,
      body: { parentId: f.catalog },
    }),
  },
  {
    method: 'POST',
    template: '/api/v1/portal/items/{id}/upload/complete',
    rule: 'edit',
    success: 202,
    request: async (f) => ({ path: `/api/v1/portal/items/${await freshItem(f)}/upload/complete` }),
  },
  {
    method: 'POST',
    template: '/api/v1/portal/items/{id}/upload/abort',
    rule: 'edit',
    success: 200,
    request: async (f) => ({ path: `/api/v1/portal/items/${await freshItem(f)}/upload/abort` }),
  },
  {
    method: 'POST',
    template: '/api/v1/portal/items/{id}/upload/urls',
    rule: 'edit',
    success: 200,
    request: async (f) => ({
      path: `/api/v1/portal/items/${await freshItem(f)}/upload/urls`,
      body: { partNumbers: [1] },
    }),
  },
  // Who sees what
  {
    method: 'PUT',
    template: '/api/v1/portal/items/{id}/visibility',
    rule: 'manage',
    success: 200,
    request: async (f) => ({
      path: `/api/v1/portal/items/${await freshCatalog(f)}/visibility`,
      body: { visibility: 'private' },
    }),
  },
  {
    method: 'GET',
    template: '/api/v1/portal/items/{id}/shares',
    rule: 'manage',
    success: 200,
    request: (f) => ({ path: `/api/v1/portal/items/${f.catalog}/shares` }),
  },
  {
    method: 'POST',
    template: '/api/v1/portal/items/{id}/shares',
    rule: 'manage',
    success: 201,
    request: async (f) => ({
      path: `/api/v1/portal/items/${await freshCatalog(f)}/shares`,
      // Not the owner: nobody may share with themselves.
      body: { principal: { type: 'user', id: f.shared.userId }, permission: 'editor' },
    }),
  },
  {
    method: 'DELETE',
    template: '/api/v1/portal/items/{id}/shares/{type}/{principalId}',
    rule: 'manage',
    success: 204,
    request: async (f) => {
      const id = await freshCatalog(f);
      const shared = await ownerCall(f, 'POST', `/api/v1/portal/items/${id}/shares`, {
        principal: { type: 'user', id: f.shared.userId },
        permission: 'viewer',
      });
      await expectCommand(shared, 201, 'share');
      return { path: `/api/v1/portal/items/${id}/shares/user/${f.shared.userId}` };
    },
  },
  // History and audit
  {
    method: 'GET',
    template: '/api/v1/portal/items/{id}/history',
    rule: 'read',
    success: 200,
    request: (f) => ({ path: `/api/v1/portal/items/${f.catalog}/history` }),
  },
  {
    method: 'GET',
    template: '/api/v1/audit/events',
    rule: 'orgAdmin',
    success: 200,
    request: () => ({ path: '/api/v1/audit/events' }),
  },
  // Webhooks of the active organization
  {
    method: 'POST',
    template: '/api/v1/webhooks',
    rule: 'orgAdmin',
    success: 201,
    request: () => ({ path: '/api/v1/webhooks', body: webhookBody }),
  },
  {
    method: 'GET',
    template: '/api/v1/webhooks',
    rule: 'orgAdmin',
    success: 200,
    request: () => ({ path: '/api/v1/webhooks' }),
  },
  {
    method: 'GET',
    template: '/api/v1/webhooks/{id}',
    rule: 'orgAdminResource',
    success: 200,
    request: (f) => ({ path: `/api/v1/webhooks/${f.webhook}` }),
  },
  {
    method: 'GET',
    template: '/api/v1/webhooks/{id}/deliveries',
    rule: 'orgAdminResource',
    success: 200,
    request: (f) => ({ path: `/api/v1/webhooks/${f.webhook}/deliveries` }),
  },
  {
    method: 'POST',
    template: '/api/v1/webhooks/{id}/enable',
    rule: 'orgAdminResource',
    success: 200,
    request: (f) => ({ path: `/api/v1/webhooks/${f.webhook}/enable` }),
  },
  {
    method: 'POST',
    template: '/api/v1/webhooks/{id}/rotate-secret',
    rule: 'orgAdminResource',
    success: 200,
    request: async (f) => ({ path: `/api/v1/webhooks/${await freshWebhook(f)}/rotate-secret` }),
  },
  {
    method: 'DELETE',
    template: '/api/v1/webhooks/{id}',
    rule: 'orgAdminResource',
    success: 200,
    request: async (f) => ({ path: `/api/v1/webhooks/${await freshWebhook(f)}` }),
  },
  // The organization's own business (the caller's active organization)
  {
    method: 'POST',
    template: '/api/auth/api-key/create',
    rule: 'orgAdmin',
    success: 201,
    request: () => ({ path: '/api/auth/api-key/create', body: { name: 'matrix', role: 'viewer' } }),
  },
  {
    method: 'GET',
    template: '/api/auth/api-key/list',
    rule: 'orgAdmin',
    success: 200,
    request: () => ({ path: '/api/auth/api-key/list' }),
  },
  {
    method: 'GET',
    template: '/api/auth/organization/list-invitations',
    rule: 'orgAdmin',
    success: 200,
    request: () => ({ path: '/api/auth/organization/list-invitations' }),
  },
  {
    // Anyone signed in with a session or JWT lists their own (an API key's 403 is user-invitations.e2e's).
    method: 'GET',
    template: '/api/auth/organization/list-user-invitations',
    rule: 'signedIn',
    success: 200,
    request: () => ({ path: '/api/auth/organization/list-user-invitations' }),
  },
  {
    method: 'GET',
    template: '/api/auth/organization/list-members',
    rule: 'signedIn',
    success: 200,
    request: () => ({ path: '/api/auth/organization/list-members' }),
  },
  {
    method: 'GET',
    template: '/api/auth/organization/list',
    rule: 'signedIn',
    success: 200,
    request: () => ({ path: '/api/auth/organization/list' }),
  },
  ...stacRows,
];

/**
 * Operations a row above does not cover, each with where it is tested instead: they change the caller's
 * own identity, so one status per caller kind would not say much.
 */
const coveredElsewhere: Readonly<Record<string, string>> = {
  'POST /api/auth/sign-up/email': 'auth.e2e: sign-up',
  'POST /api/auth/sign-in/email': 'auth.e2e: sign-in, brute force, session fixation',
  'POST /api/auth/sign-out': 'auth.e2e: sign-out revokes the session and its JWTs',
  'GET /api/auth/get-session': 'auth.e2e: get-session for every credential',
  'GET /api/auth/token': 'auth.e2e: token',
  'POST /api/auth/token': 'auth.e2e: token',
  'POST /api/auth/api-key/revoke': 'auth-organizations.e2e: revoked API key',
  'POST /api/auth/organization/create': 'auth-organizations.e2e',
  'POST /api/auth/organization/set-active': 'auth-organizations.e2e',
  'POST /api/auth/organization/invite-member': 'auth-organizations.e2e: invitations',
  'POST /api/auth/organization/accept-invitation': 'auth-organizations.e2e: invitations',
  'POST /api/auth/organization/cancel-invitation': 'auth-organizations.e2e: listing and cancelling',
  'POST /api/auth/organization/update-member-role': 'auth-organizations.e2e: role changes',
  'POST /api/auth/organization/remove-member': 'auth-organizations.e2e: removals',
  'POST /api/auth/organization/has-permission': 'auth-organizations.e2e: has-permission',
  'POST /api/v1/portal/bulk':
    'bulk.e2e: an NDJSON body; each line is decided as its single command (anonymous 401, another organization per line)',
  'GET /api/v1/events': 'events-feed.e2e: a stream never ends, so who sees which change is tested there',
};

/**
 * A command that succeeded before its projection answers 202 with its position (the projector was
 * slower than the API waits): that is the row's success too.
 */
function successOrStatus(response: JsonResponse, success: number): number {
  return response.status === 202 && response.headers.has('x-event-position') ? success : response.status;
}

let fixture: Fixture;
const credentials = new Map<CallerKind, Record<string, string>>();

async function member(owner: SignedInUser, role: Role): Promise<SignedInUser> {
  return addMember(owner, await signUp({ name: `The ${role}` }), role);
}

async function sessionIdOf(user: SignedInUser): Promise<string> {
  const session = await call<{ session: { id: string } }>('GET', '/api/auth/get-session', {
    headers: user.headers,
  });
  expect(session.status).toBe(200);
  return session.body.session.id;
}

beforeAll(async () => {
  const owner = await signUp({ name: 'The owner' });
  const [admin, editor, viewer, other, shared] = await Promise.all([
    member(owner, 'admin'),
    member(owner, 'editor'),
    member(owner, 'viewer'),
    signUp({ name: 'Someone of another organization' }),
    signUp({ name: 'The user it is shared with' }),
  ]);
  // The upload helpers act as the owner.
  setDefaultCredential(owner.headers);

  const catalogTitle = `Shared catalog ${Math.random().toString(36).slice(2)}`;
  const catalog = await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
    body: catalogBody({ title: catalogTitle }),
  });
  await expectCommand(catalog, 201, 'create catalog');
  const catalogId = catalog.body.portalItemId;
  const share = await call('POST', `/api/v1/portal/items/${catalogId}/shares`, {
    body: { principal: { type: 'user', id: shared.userId }, permission: 'viewer' },
  });
  await expectCommand(share, 201, 'share');
  const collection = await call<{ portalItemId: string }>('POST', '/api/v1/portal/collections/create', {
    body: catalogBody({ parentId: catalogId }),
  });
  await expectCommand(collection, 201, 'create collection');
  const file = fileOf(1024);
  const descriptor = await createItem({ parentId: collection.body.portalItemId, size: file.length });
  await uploadParts(descriptor, file);
  expect((await call('POST', `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`)).status).toBe(
    202,
  );
  const ready = await waitForStatus(descriptor.portalItemId, ['ready']);
  const node = await call<{ node: { slug: string } }>('GET', `/api/v1/browser/nodes/${catalogId}/children`);

  fixture = {
    owner,
    shared,
    catalog: catalogId,
    catalogSlug: node.body.node.slug,
    collection: collection.body.portalItemId,
    item: descriptor.portalItemId,
    assetHref: ready.assets[0]?.href ?? '',
    webhook: '',
  };
  fixture = { ...fixture, webhook: await freshWebhook(fixture) };

  const revokedSession = await signIn(viewer);
  expect((await call('POST', '/api/auth/sign-out', { headers: revokedSession.headers })).status).toBe(200);
  const revokedKey = await apiKey(owner, { role: 'viewer', name: 'soon revoked' });
  const revoked = await call('POST', '/api/auth/api-key/revoke', {
    headers: owner.headers,
    body: { keyId: revokedKey.id },
  });
  await expectCommand(revoked, 200, 'api-key/revoke');
  const subject = {
    userId: owner.userId,
    orgId: owner.orgId,
    role: 'owner',
    sessionId: await sessionIdOf(owner),
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  credentials.set('anonymous', {});
  credentials.set('viewer', viewer.headers);
  credentials.set('editor', editor.headers);
  credentials.set('admin', admin.headers);
  credentials.set('owner', owner.headers);
  credentials.set('otherOrgMember', other.headers);
  credentials.set('sharedWithUser', shared.headers);
  credentials.set('expiredToken', bearer(forgeJwt(claimsFor(subject, -60))));
  credentials.set('otherKeyToken', bearer(forgeJwt(claimsFor(subject, 600), { secret: 'x'.repeat(40) })));
  credentials.set('algNoneToken', bearer(forgeJwt(claimsFor(subject, 600), { alg: 'none' })));
  credentials.set('revokedSession', revokedSession.headers);
  credentials.set('revokedApiKey', revokedKey.headers);
}, 120_000);

describe('the authorization matrix', () => {
  it('has a row for every operation the OpenAPI document lists', async () => {
    const document = await call<{ paths: Record<string, Record<string, unknown>> }>(
      'GET',
      '/api/v1/openapi.json',
      { as: 'anonymous' },
    );
    const covered = new Set(rows.map((row) => `${row.method} ${row.template}`));
    const operations = Object.entries(document.body.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => !['parameters', 'summary', 'description'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    const missing = operations.filter(
      (operation) =>
        !covered.has(operation) &&
        !(operation in coveredElsewhere) &&
        // HEAD follows GET; OPTIONS, TRACE and the catch-all of /api/auth are auth.e2e's.
        !/^(HEAD|OPTIONS|TRACE) /.test(operation) &&
        !operation.endsWith('/api/auth/{route}'),
    );
    expect(missing).toEqual([]);
  });

  for (const row of rows) {
    it(`${row.method} ${row.template}`, async () => {
      const outcomes: Record<string, number> = {};
      const expected: Record<string, number> = {};
      for (const caller of callerKinds) {
        const request = await row.request(fixture);
        const response = await call(row.method, request.path, {
          headers: credentials.get(caller) ?? {},
          as: 'anonymous',
          ...(request.body === undefined ? {} : { body: request.body }),
        });
        outcomes[caller] = row.statusOf ? row.statusOf(response) : successOrStatus(response, row.success);
        expected[caller] = expectedStatus(row.rule, caller, row.success);
        if (response.status >= 400) {
          expect(response.body, `${caller}: an error carries a message`).toMatchObject({
            message: expect.any(String) as unknown,
          });
        }
      }
      expect(outcomes).toEqual(expected);
    });
  }
});
