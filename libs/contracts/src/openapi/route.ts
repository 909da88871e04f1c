import type { z } from 'zod';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** Error statuses answered with the message object; each maps to a shared response component. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 406 | 409 | 412 | 413 | 415 | 429 | 502 | 503;

/** Request headers documented as shared parameters (docs/decisions.md, Commands and consistency). */
export type RequestHeader = 'IfMatch' | 'IdempotencyKey' | 'Prefer' | 'XMinPosition';

/** Response headers documented as shared header components. */
export type ResponseHeader = 'XEventPosition' | 'ETag' | 'PreferenceApplied' | 'Location';

export type PathParameter =
  | 'PortalObjectId'
  | 'AssetId'
  | 'NodeId'
  | 'BrowserPath'
  | 'PrincipalType'
  | 'PrincipalId'
  | 'WebhookId'
  | 'CollectionId'
  | 'ItemId'
  | 'CatalogId';

/** The later issue that brings a route the API does not serve yet; until then it answers 501. */
export type PendingIssue = 'identity';

export interface ResponseSpec {
  description: string;
  /** A schema registered in `schemas.ts`; absent when the body is not specified yet. */
  schema?: z.ZodType;
  /** The same answer in other media types (content negotiation by `Accept`): media type → OpenAPI media type object. */
  otherMediaTypes?: Readonly<Record<string, JsonObject>>;
  headers?: readonly ResponseHeader[];
}

export interface Route {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/api/v1/portal/items/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** No credentials needed: the operation overrides the document's security requirement. */
  public?: boolean;
  pathParameters?: readonly PathParameter[];
  query?: z.ZodObject;
  headers?: readonly RequestHeader[];
  body?: z.ZodType;
  /** The request body's media type; `application/json` by default. For NDJSON the schema is one line's. */
  bodyMediaType?: string;
  /** Successes, and the rare error whose body is not the message object (readiness 503). */
  responses: Partial<Record<200 | 201 | 202 | 204 | 302 | 503, ResponseSpec>>;
  /**
   * Statuses answered with the shared message-object responses. Those that follow from the route's
   * shape are added by the document builder: 422 and 409 with `Idempotency-Key`, 501 while not served.
   */
  errors: readonly ErrorStatus[];
  /** Designed but not served yet: documented with its shape, plus 501 until this part of the API is served. */
  notServedYet?: PendingIssue;
}

export type JsonObject = Record<string, unknown>;

/** Operations that change state: 2xx answers carry the event position and the new revision. */
export function commandResponses(
  status: 200 | 201,
  description: string,
  schema: z.ZodType,
): Route['responses'] {
  const responses: Route['responses'] = {
    202: {
      description: `${description} Answered to \`Prefer: respond-async\` before the change is projected.`,
      schema,
      headers: ['XEventPosition', 'PreferenceApplied'],
    },
  };
  responses[status] = { description, schema, headers: ['XEventPosition', 'ETag'] };
  return responses;
}
