/**
 * Every API call the explorer makes, typed by the zod schemas of `libs/contracts`: bodies are the
 * contract's input types and answers are parsed with its response schemas, so the UI cannot drift
 * from the API without a type error or a loud failure.
 */
import {
  auditPageSchema,
  breadcrumbsSchema,
  browserChildrenSchema,
  browserNodePageSchema,
  createdObjectSchema,
  currentUserSchema,
  deletedObjectsSchema,
  historyPageSchema,
  invitationListSchema,
  invitationSchema,
  invitationViewSchema,
  userInvitationListSchema,
  inventoryPageSchema,
  organizationListSchema,
  organizationMembershipSchema,
  portalItemRecordSchema,
  sessionViewSchema,
  shareListSchema,
  shareSchema,
  signedOutSchema,
  uploadAcceptedSchema,
  uploadDescriptorSchema,
  uploadStatusSchema,
  uploadUrlsSchema,
  visibilityResultSchema,
  type CreateCatalogBody,
  type CreateCollectionBody,
  type CreateItemBody,
  type CreateOrganizationBody,
  type InviteMemberBody,
  type NodeSort,
  type SearchBox,
  type PortalItemStatus,
  type PortalKind,
  type PrincipalType,
  type ShareBody,
  type SignInBody,
  type SignUpBody,
  type SortOrder,
  type UpdatePortalItemBody,
  type VisibilityValue,
} from '@portal/contracts';
import { request, requestFull, requestNoContent, type QueryValue } from './client.js';

const AUTH = '/api/auth';
const V1 = '/api/v1';

export const getSession = () => request(sessionViewSchema, 'GET', `${AUTH}/get-session`);
export const signUp = (body: SignUpBody) =>
  request(sessionViewSchema, 'POST', `${AUTH}/sign-up/email`, { body });
export const signIn = (body: SignInBody) =>
  request(sessionViewSchema, 'POST', `${AUTH}/sign-in/email`, { body });
export const signOut = () => request(signedOutSchema, 'POST', `${AUTH}/sign-out`);
export const currentUser = () => request(currentUserSchema, 'GET', `${V1}/users/me`);
export const listOrganizations = () => request(organizationListSchema, 'GET', `${AUTH}/organization/list`);
export const setActiveOrganization = (organizationId: string) =>
  request(sessionViewSchema, 'POST', `${AUTH}/organization/set-active`, { body: { organizationId } });
export const createOrganization = (body: CreateOrganizationBody) =>
  request(organizationMembershipSchema, 'POST', `${AUTH}/organization/create`, { body });

export const inviteMember = (body: InviteMemberBody) =>
  request(invitationSchema, 'POST', `${AUTH}/organization/invite-member`, { body });
export const listInvitations = () =>
  request(invitationListSchema, 'GET', `${AUTH}/organization/list-invitations`, {
    query: { status: 'pending' },
  });
/** The signed-in user's own pending invitations. */
export const listUserInvitations = () =>
  request(userInvitationListSchema, 'GET', `${AUTH}/organization/list-user-invitations`);
export const cancelInvitation = (invitationId: string) =>
  request(invitationViewSchema, 'POST', `${AUTH}/organization/cancel-invitation`, { body: { invitationId } });
/** Answers the membership it gives. */
export const acceptInvitation = (invitationId: string) =>
  request(organizationMembershipSchema, 'POST', `${AUTH}/organization/accept-invitation`, {
    body: { invitationId },
  });

/** What a children page is asked for: the order and the filters (docs: README "Browsing"). */
export interface ChildrenQuery {
  readonly sort: NodeSort;
  readonly order: SortOrder;
  readonly kind: readonly PortalKind[];
  readonly status: readonly PortalItemStatus[];
}

function childrenQuery(query: ChildrenQuery, limit: number, cursor?: string): Record<string, QueryValue> {
  return { sort: query.sort, order: query.order, kind: query.kind, status: query.status, limit, cursor };
}

export const browserRoot = (limit: number, cursor?: string, signal?: AbortSignal) =>
  request(browserNodePageSchema, 'GET', `${V1}/browser/root`, {
    query: { limit, cursor },
    ...(signal ? { signal } : {}),
  });

export const children = (
  nodeId: string,
  query: ChildrenQuery,
  limit: number,
  cursor?: string,
  signal?: AbortSignal,
) =>
  request(browserChildrenSchema, 'GET', `${V1}/browser/nodes/${encodeURIComponent(nodeId)}/children`, {
    query: childrenQuery(query, limit, cursor),
    ...(signal ? { signal } : {}),
  });

/** The node at a slug path and its first page of children, in one request. */
export const lookupPath = (
  slugs: readonly string[],
  query: ChildrenQuery,
  limit: number,
  signal?: AbortSignal,
) =>
  request(browserChildrenSchema, 'GET', `${V1}/browser/path/${slugs.map(encodeURIComponent).join('/')}`, {
    query: childrenQuery(query, limit),
    ...(signal ? { signal } : {}),
  });

export const breadcrumbs = (nodeId: string) =>
  request(breadcrumbsSchema, 'GET', `${V1}/browser/nodes/${encodeURIComponent(nodeId)}/breadcrumbs`);

export const portalItem = (id: string) =>
  requestFull(portalItemRecordSchema, 'GET', `${V1}/portal/items/${encodeURIComponent(id)}`);

/** The object as it was at an RFC 3339 time or a revision (docs/history.md): the API folds its events. */
export const portalItemAsOf = (id: string, asOf: string) =>
  request(portalItemRecordSchema, 'GET', `${V1}/portal/items/${encodeURIComponent(id)}`, {
    query: { asOf },
  });

const itemPath = (id: string) => `${V1}/portal/items/${encodeURIComponent(id)}`;
export const changeVisibility = (id: string, visibility: VisibilityValue) =>
  request(visibilityResultSchema, 'PUT', `${itemPath(id)}/visibility`, { body: { visibility } });
export const listShares = (id: string) => request(shareListSchema, 'GET', `${itemPath(id)}/shares`);
export const share = (id: string, body: ShareBody) =>
  request(shareSchema.loose(), 'POST', `${itemPath(id)}/shares`, { body });
/** Answered `204 No Content`. */
export const unshare = (id: string, type: PrincipalType, principalId: string) =>
  requestNoContent('DELETE', `${itemPath(id)}/shares/${type}/${encodeURIComponent(principalId)}`);

export const history = (id: string, cursor?: string) =>
  request(historyPageSchema, 'GET', `${V1}/portal/items/${encodeURIComponent(id)}/history`, {
    query: { limit: 100, cursor },
  });

export const createCatalog = (body: CreateCatalogBody) =>
  request(createdObjectSchema, 'POST', `${V1}/portal/catalogs/create`, { body });
export const createCollection = (body: CreateCollectionBody) =>
  request(createdObjectSchema, 'POST', `${V1}/portal/collections/create`, { body });
export const createItem = (body: CreateItemBody) =>
  request(uploadDescriptorSchema, 'POST', `${V1}/portal/items/create`, { body });

/** `If-Match` with the revision shown, so an edit never overwrites a change the user has not seen. */
export const updatePortalItem = (id: string, body: UpdatePortalItemBody, revision: number) =>
  request(createdObjectSchema, 'PATCH', `${V1}/portal/items/${encodeURIComponent(id)}`, {
    body,
    headers: { 'if-match': `"${revision}"` },
  });

export const deletePortalItem = (id: string, recursive: boolean) =>
  request(deletedObjectsSchema, 'DELETE', `${V1}/portal/items/${encodeURIComponent(id)}`, {
    query: { recursive: recursive ? 'true' : undefined },
  });

const uploadPath = (id: string) => `${V1}/portal/items/${encodeURIComponent(id)}/upload`;
export const uploadStatus = (id: string) => request(uploadStatusSchema, 'GET', uploadPath(id));
export const uploadUrls = (id: string, partNumbers: readonly number[]) =>
  request(uploadUrlsSchema, 'POST', `${uploadPath(id)}/urls`, { body: { partNumbers } });
export const completeUpload = (id: string, parts: readonly { partNumber: number; etag: string }[]) =>
  request(uploadAcceptedSchema, 'POST', `${uploadPath(id)}/complete`, { body: { parts } });
export const abortUpload = (id: string) => request(uploadAcceptedSchema, 'POST', `${uploadPath(id)}/abort`);

export interface InventoryQuery {
  readonly kind: readonly PortalKind[];
  readonly status: readonly PortalItemStatus[];
  readonly q: string;
  readonly sort: NodeSort;
  readonly order: SortOrder;
  /** Only objects whose footprint meets this box (west, south, east, north). */
  readonly bbox: SearchBox | null;
}

export const inventory = (query: InventoryQuery, limit: number, cursor?: string) =>
  request(inventoryPageSchema, 'GET', `${V1}/portal/inventory/`, {
    query: { ...query, q: query.q.trim(), bbox: query.bbox?.join(','), limit, cursor },
  });

export const auditFeed = (query: Readonly<Record<string, QueryValue>>) =>
  request(auditPageSchema, 'GET', `${V1}/audit/events`, { query });

/** Where the audit feed's CSV export of the same filters is downloaded from (a plain link). */
export const auditCsvHref = (query: string) => `${V1}/audit/events${query}`;

/** One node as the browser shows it (its path, child count): the `node` of a one-child page. */
export const browserNode = async (id: string) =>
  (await children(id, { sort: 'kind', order: 'asc', kind: [], status: [] }, 1)).node;
