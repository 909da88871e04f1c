import { z } from 'zod';
import {
  changeVisibilityBodySchema,
  shareBodySchema,
  shareListSchema,
  shareSchema,
  visibilityResultSchema,
  visibilitySchema,
} from '../access.js';
import { auditActorSchema, auditEventSchema, auditObjectSchema, auditPageSchema } from '../audit.js';
import { batchCommandSchema, batchRequestSchema, batchResponseSchema, batchResultSchema } from '../batch.js';
import {
  bulkLineSchema,
  bulkResponseLineSchema,
  bulkResultLineSchema,
  bulkSummarySchema,
  bulkUploadSchema,
} from '../bulk.js';
import {
  breadcrumbSchema,
  breadcrumbsSchema,
  browserChildrenSchema,
  browserNodePageSchema,
  browserNodeSchema,
} from '../browser.js';
import { catalogPageSchema, catalogRecordSchema, createCatalogBodySchema } from '../catalogs.js';
import { collectionRecordSchema, createCollectionBodySchema } from '../collections.js';
import {
  createdObjectSchema,
  deletedObjectsSchema,
  messageDetailSchema,
  messageSchema,
  pageLinkSchema,
} from '../common.js';
import {
  bboxSchema,
  collectionExtentRecordSchema,
  collectionExtentSchema,
  temporalIntervalSchema,
} from '../extent.js';
import { changeEventSchema, feedResetSchema } from '../events.js';
import { historyActorSchema, historyEntrySchema, historyPageSchema } from '../history.js';
import { inventoryEntrySchema, inventoryPageSchema, inventoryTotalsSchema } from '../inventory.js';
import {
  completeUploadBodySchema,
  createItemBodySchema,
  partUrlSchema,
  receivedPartSchema,
  uploadDescriptorSchema,
  createItemAnswerSchema,
  uploadStatusSchema,
  uploadUrlsBodySchema,
  uploadUrlsSchema,
} from '../items.js';
import { uploadAcceptedSchema } from '../uploads.js';
import { collectionLinkSchema, linkSchema, portalItemLinkSchema } from '../link.js';
import {
  assetSchema,
  movePortalItemBodySchema,
  portalItemPageSchema,
  portalItemRecordSchema,
  portalItemSummarySchema,
  updatePortalItemBodySchema,
} from '../portal-items.js';
import {
  dependencyCheckSchema,
  healthSchema,
  readinessSchema,
  serviceDescriptionSchema,
  serviceLinkSchema,
} from '../service.js';
import {
  apiKeyListSchema,
  apiKeySchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  revokeApiKeyBodySchema,
} from '../api-keys.js';
import {
  currentUserSchema,
  protectedSchema,
  sessionSchema,
  sessionViewSchema,
  signedOutSchema,
  signInBodySchema,
  signUpBodySchema,
  tokenSchema,
  userSchema,
} from '../auth.js';
import {
  acceptInvitationBodySchema,
  cancelInvitationBodySchema,
  createOrganizationBodySchema,
  hasPermissionBodySchema,
  hasPermissionSchema,
  invitationListSchema,
  userInvitationListSchema,
  userInvitationSchema,
  invitationSchema,
  invitationViewSchema,
  inviteMemberBodySchema,
  memberListSchema,
  memberSchema,
  organizationListSchema,
  organizationMembershipSchema,
  removedMemberSchema,
  removeMemberBodySchema,
  setActiveOrganizationBodySchema,
  updateMemberRoleBodySchema,
} from '../organizations.js';
import {
  createdWebhookSchema,
  registerWebhookBodySchema,
  rotateWebhookSecretBodySchema,
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookSchema,
} from '../webhooks.js';
import {
  stacCatalogSchema,
  stacChildrenSchema,
  stacCollectionSchema,
  stacCollectionsSchema,
  stacConformanceSchema,
  stacErrorSchema,
  stacItemCollectionSchema,
  stacItemSchema,
  stacLandingPageSchema,
  stacLinkSchema,
  stacQueryablesSchema,
  stacSearchBodySchema,
} from '../stac.js';
import {
  stacAggregateBodySchema,
  stacAggregationCollectionSchema,
  stacAggregationsSchema,
  stacCollectionAggregateBodySchema,
} from '../stac-aggregation.js';
import {
  stacCollectionInputSchema,
  stacCollectionPatchSchema,
  stacItemInputSchema,
  stacItemPatchSchema,
  stacItemsAnswerSchema,
  stacWriteAcceptedSchema,
  stacItemsInputSchema,
} from '../stac-transactions.js';
import type { JsonObject } from './route.js';

/** Request bodies, converted with `io: 'input'` (what a client may send, before defaults). */
export const requestSchemas: Record<string, z.ZodType> = {
  Link: linkSchema,
  BBox: bboxSchema,
  TemporalInterval: temporalIntervalSchema,
  CollectionExtent: collectionExtentSchema,
  CreateCatalogRequest: createCatalogBodySchema,
  CreateCollectionRequest: createCollectionBodySchema,
  CreateItemRequest: createItemBodySchema,
  StacItemsRequest: stacItemsInputSchema,
  StacItemRequest: stacItemInputSchema,
  StacItemPatchRequest: stacItemPatchSchema,
  StacCollectionRequest: stacCollectionInputSchema,
  StacCollectionPatchRequest: stacCollectionPatchSchema,
  CompleteUploadRequest: completeUploadBodySchema,
  UploadUrlsRequest: uploadUrlsBodySchema,
  UpdatePortalItemRequest: updatePortalItemBodySchema,
  MovePortalItemRequest: movePortalItemBodySchema,
  Visibility: visibilitySchema,
  ChangeVisibilityRequest: changeVisibilityBodySchema,
  ShareRequest: shareBodySchema,
  BatchCommand: batchCommandSchema,
  BatchRequest: batchRequestSchema,
  BulkLine: bulkLineSchema,
  SignUpRequest: signUpBodySchema,
  SignInRequest: signInBodySchema,
  CreateApiKeyRequest: createApiKeyBodySchema,
  RevokeApiKeyRequest: revokeApiKeyBodySchema,
  CreateOrganizationRequest: createOrganizationBodySchema,
  SetActiveOrganizationRequest: setActiveOrganizationBodySchema,
  InviteMemberRequest: inviteMemberBodySchema,
  AcceptInvitationRequest: acceptInvitationBodySchema,
  CancelInvitationRequest: cancelInvitationBodySchema,
  UpdateMemberRoleRequest: updateMemberRoleBodySchema,
  RemoveMemberRequest: removeMemberBodySchema,
  HasPermissionRequest: hasPermissionBodySchema,
  RegisterWebhookRequest: registerWebhookBodySchema,
  RotateWebhookSecretRequest: rotateWebhookSecretBodySchema,
  StacSearchRequest: stacSearchBodySchema,
  StacAggregateRequest: stacAggregateBodySchema,
  StacCollectionAggregateRequest: stacCollectionAggregateBodySchema,
};

/** Response bodies, converted with `io: 'output'` (what the service answers). */
export const responseSchemas: Record<string, z.ZodType> = {
  Link: linkSchema,
  BBox: bboxSchema,
  TemporalInterval: temporalIntervalSchema,
  Message: messageSchema,
  MessageDetail: messageDetailSchema,
  CreatedObject: createdObjectSchema,
  DeletedObjects: deletedObjectsSchema,
  PageLink: pageLinkSchema,
  PartUrl: partUrlSchema,
  UploadDescriptor: uploadDescriptorSchema,
  CreateItemResponse: createItemAnswerSchema,
  StacItemsAdded: stacItemsAnswerSchema,
  StacWriteAccepted: stacWriteAcceptedSchema,
  UploadUrls: uploadUrlsSchema,
  ReceivedPart: receivedPartSchema,
  UploadStatus: uploadStatusSchema,
  UploadAccepted: uploadAcceptedSchema,
  CatalogRecord: catalogRecordSchema,
  CatalogPage: catalogPageSchema,
  CollectionLink: collectionLinkSchema,
  CollectionExtentRecord: collectionExtentRecordSchema,
  CollectionRecord: collectionRecordSchema,
  PortalItemLink: portalItemLinkSchema,
  PortalItemSummary: portalItemSummarySchema,
  Asset: assetSchema,
  PortalItemRecord: portalItemRecordSchema,
  PortalItemPage: portalItemPageSchema,
  BrowserNode: browserNodeSchema,
  BrowserNodePage: browserNodePageSchema,
  BrowserChildren: browserChildrenSchema,
  Breadcrumb: breadcrumbSchema,
  Breadcrumbs: breadcrumbsSchema,
  InventoryEntry: inventoryEntrySchema,
  InventoryTotals: inventoryTotalsSchema,
  InventoryPage: inventoryPageSchema,
  ServiceLink: serviceLinkSchema,
  ServiceDescription: serviceDescriptionSchema,
  Health: healthSchema,
  DependencyCheck: dependencyCheckSchema,
  Readiness: readinessSchema,
  BatchResult: batchResultSchema,
  BatchResponse: batchResponseSchema,
  BulkUpload: bulkUploadSchema,
  BulkResultLine: bulkResultLineSchema,
  BulkSummary: bulkSummarySchema,
  BulkResponseLine: bulkResponseLineSchema,
  Visibility: visibilitySchema,
  VisibilityResult: visibilityResultSchema,
  Share: shareSchema,
  ShareList: shareListSchema,
  User: userSchema,
  Session: sessionSchema,
  SessionView: sessionViewSchema,
  Token: tokenSchema,
  SignedOut: signedOutSchema,
  CurrentUser: currentUserSchema,
  Protected: protectedSchema,
  OrganizationMembership: organizationMembershipSchema,
  OrganizationList: organizationListSchema,
  Invitation: invitationSchema,
  InvitationView: invitationViewSchema,
  InvitationList: invitationListSchema,
  UserInvitation: userInvitationSchema,
  UserInvitationList: userInvitationListSchema,
  Member: memberSchema,
  MemberList: memberListSchema,
  RemovedMember: removedMemberSchema,
  HasPermission: hasPermissionSchema,
  ApiKey: apiKeySchema,
  CreatedApiKey: createdApiKeySchema,
  ApiKeyList: apiKeyListSchema,
  Webhook: webhookSchema,
  CreatedWebhook: createdWebhookSchema,
  WebhookList: webhookListSchema,
  WebhookDelivery: webhookDeliverySchema,
  WebhookDeliveryPage: webhookDeliveryPageSchema,
  HistoryActor: historyActorSchema,
  HistoryEntry: historyEntrySchema,
  HistoryPage: historyPageSchema,
  AuditActor: auditActorSchema,
  AuditObject: auditObjectSchema,
  AuditEvent: auditEventSchema,
  AuditPage: auditPageSchema,
  ChangeEvent: changeEventSchema,
  FeedReset: feedResetSchema,
  StacLink: stacLinkSchema,
  StacError: stacErrorSchema,
  StacLandingPage: stacLandingPageSchema,
  StacConformance: stacConformanceSchema,
  StacCatalog: stacCatalogSchema,
  StacCollection: stacCollectionSchema,
  StacCollections: stacCollectionsSchema,
  StacChildren: stacChildrenSchema,
  StacItem: stacItemSchema,
  StacItemCollection: stacItemCollectionSchema,
  StacQueryables: stacQueryablesSchema,
  StacAggregationCollection: stacAggregationCollectionSchema,
  StacAggregations: stacAggregationsSchema,
};

export const schemaRef = (name: string) => `#/components/schemas/${name}`;

function convert(table: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(table)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: schemaRef,
  });
  const result: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // A component is not a standalone document: its dialect and base URI come from the OpenAPI file.
    const { $schema: _dialect, $id: _id, ...component } = schema as JsonObject;
    result[id] = component;
  }
  return result;
}

/**
 * Every named schema, requests and responses together. A name in both tables must convert to the
 * same JSON Schema either way, or the document would describe one name two ways.
 */
export function buildComponentSchemas(
  requestTable: Record<string, z.ZodType> = requestSchemas,
  responseTable: Record<string, z.ZodType> = responseSchemas,
): Record<string, JsonObject> {
  const requests = convert(requestTable, 'input');
  const responses = convert(responseTable, 'output');
  for (const [name, schema] of Object.entries(requests)) {
    const other = responses[name];
    if (other !== undefined && JSON.stringify(other) !== JSON.stringify(schema)) {
      throw new Error(
        `component schema ${name} differs between requests and responses; give each its own name`,
      );
    }
  }
  return { ...responses, ...requests };
}

/** The component name of a registered schema, for `$ref`s in operations. */
export function componentNameOf(schema: z.ZodType): string {
  for (const table of [responseSchemas, requestSchemas]) {
    for (const [name, candidate] of Object.entries(table)) if (candidate === schema) return name;
  }
  throw new Error('schema used by an operation is not registered in openapi/schemas.ts');
}
