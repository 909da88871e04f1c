import { httpHeaders } from '../http-headers.js';
import type { ErrorStatus, JsonObject, PathParameter, RequestHeader, ResponseHeader } from './route.js';
import { schemaRef } from './schemas.js';

const uuidSchema = { type: 'string', format: 'uuid' };
const stringSchema = { type: 'string' };

export const pathParameters: Record<PathParameter, JsonObject> = {
  PortalObjectId: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'Id of the portal object.',
    schema: uuidSchema,
  },
  AssetId: {
    name: 'assetId',
    in: 'path',
    required: true,
    description: 'Id of an asset of the item.',
    schema: uuidSchema,
  },
  NodeId: {
    name: 'nodeId',
    in: 'path',
    required: true,
    description: 'Id of a browser node.',
    schema: uuidSchema,
  },
  BrowserPath: {
    name: 'path',
    in: 'path',
    required: true,
    description:
      'Slash-separated slug path from the root level, e.g. `climate/temperature/2024` (slashes kept).',
    schema: stringSchema,
  },
  PrincipalType: {
    name: 'type',
    in: 'path',
    required: true,
    description: 'Whom a share names: `user` or `organization`.',
    schema: { type: 'string', enum: ['user', 'organization'] },
  },
  PrincipalId: {
    name: 'principalId',
    in: 'path',
    required: true,
    description: 'Id of the user or the organization the share names.',
    schema: uuidSchema,
  },
  WebhookId: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'Id of the webhook endpoint.',
    schema: uuidSchema,
  },
  // STAC ids are strings: one that is not a portal id names nothing, a 404 rather than a 400.
  CollectionId: {
    name: 'collectionId',
    in: 'path',
    required: true,
    description: 'Id of a collection: its portal id (a UUID), or the STAC name its client gave it.',
    schema: stringSchema,
  },
  ItemId: {
    name: 'itemId',
    in: 'path',
    required: true,
    description:
      "Id of an item: its portal id (a UUID), or in a collection's STAC paths the STAC id its client named it by.",
    schema: stringSchema,
  },
  CatalogId: {
    name: 'catalogId',
    in: 'path',
    required: true,
    description: 'Id of a catalog (its portal id).',
    schema: stringSchema,
  },
};

export const headerParameters: Record<RequestHeader, JsonObject> = {
  IfMatch: {
    name: httpHeaders.ifMatch,
    in: 'header',
    description: 'The revision from `ETag`; a revision that is no longer current answers 412.',
    schema: stringSchema,
  },
  IdempotencyKey: {
    name: httpHeaders.idempotencyKey,
    in: 'header',
    description:
      "The caller's own, for this operation (method and route, however the path is spelled), for 24 hours. A retry with the same key and body (compared as JSON: fields in any order) returns the first successful response again; the same key with another body answers 422 `IDEMPOTENCY_KEY_REUSED`, and while the first request with the key still runs, 409 `IDEMPOTENCY_KEY_IN_PROGRESS` with `Retry-After`. Failures are not remembered: after one the key may be retried.",
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  Prefer: {
    name: httpHeaders.prefer,
    in: 'header',
    description:
      '`respond-async` answers 202 at once instead of waiting until the change is projected. `return=representation`: a STAC `PUT` or `PATCH` answers 200 with the resource as changed instead of 204.',
    schema: { type: 'string', examples: ['respond-async', 'return=representation'] },
  },
  XMinPosition: {
    name: httpHeaders.minPosition,
    in: 'header',
    description:
      'An `X-Event-Position` from an earlier command: the read waits (bounded) until the projections passed it, else 503.',
    schema: stringSchema,
  },
};

type ResponseHeaderComponent = ResponseHeader | 'RetryAfter' | 'Allow';

const responseHeaderDefinitions: Record<ResponseHeaderComponent, { name: string; header: JsonObject }> = {
  XEventPosition: {
    name: httpHeaders.eventPosition,
    header: {
      description:
        'Opaque position of the change in the event log; send it as `X-Min-Position` to read your write.',
      schema: stringSchema,
    },
  },
  ETag: {
    name: httpHeaders.etag,
    header: {
      description: 'The revision of the object as a strong entity tag, e.g. `"3"`.',
      schema: stringSchema,
    },
  },
  PreferenceApplied: {
    name: httpHeaders.preferenceApplied,
    header: { description: '`respond-async` when the answer did not wait.', schema: stringSchema },
  },
  RetryAfter: {
    name: httpHeaders.retryAfter,
    header: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  },
  Allow: { name: 'Allow', header: { description: 'The methods the path accepts.', schema: stringSchema } },
  Location: {
    name: 'Location',
    header: {
      description: 'Where the resource is; for a download, a short-lived presigned URL.',
      schema: stringSchema,
    },
  },
};

export function buildResponseHeaders(): Record<string, JsonObject> {
  return Object.fromEntries(
    Object.entries(responseHeaderDefinitions).map(([key, { header }]) => [key, header]),
  );
}

/** `headers` of a response: wire name → `$ref` to the shared header component. */
export function responseHeaderRefs(components: readonly ResponseHeaderComponent[]): JsonObject {
  return Object.fromEntries(
    components.map((key) => [responseHeaderDefinitions[key].name, { $ref: `#/components/headers/${key}` }]),
  );
}

interface ResponseComponent {
  name: string;
  description: string;
  headers?: ResponseHeaderComponent[];
}

const conflictCodes =
  '`code` says which: `PARENT_NOT_FOUND` (the `parentId` of a create or move names no object, or a deleted one), `INVALID_PARENT_KIND`, `DEPTH_EXCEEDED`, `CYCLE` (a move below itself), `NOT_EMPTY` (a delete without `recursive=true`), `ALREADY_EXISTS`, `CONCURRENCY_CONFLICT` (a concurrent change won; retry).';

const errorDescriptions: Record<ErrorStatus, ResponseComponent> = {
  400: {
    name: 'BadRequest',
    description:
      'Invalid body, query or path: `message` names each failing field and its bound; `details` lists them.',
  },
  401: {
    name: 'Unauthorized',
    description:
      'No credentials where they are needed, or bad ones (`UNAUTHENTICATED`): an expired, forged, revoked or unknown credential answers 401 on every route.',
  },
  403: {
    name: 'Forbidden',
    description:
      'Authenticated but not allowed (`FORBIDDEN`), or a cookie-authenticated write without a valid `X-CSRF-Token` or from a foreign `Origin` (`CSRF_TOKEN_INVALID`, `CSRF_ORIGIN_REFUSED`).',
  },
  404: {
    name: 'NotFound',
    description:
      'The `{id}` of the path (or an id of the query) names no object, a deleted one, or one the caller may not see.',
  },
  405: {
    name: 'MethodNotAllowed',
    description: 'The path does not accept this method; `Allow` lists those it does (`METHOD_NOT_ALLOWED`).',
    headers: ['Allow'],
  },
  406: {
    name: 'NotAcceptable',
    description: 'None of the media types in `Accept` is one the operation answers in (`NOT_ACCEPTABLE`).',
  },
  409: { name: 'Conflict', description: `The change conflicts with the current state. ${conflictCodes}` },
  412: { name: 'PreconditionFailed', description: '`If-Match` names a revision that is no longer current.' },
  413: { name: 'PayloadTooLarge', description: 'The body is too large.' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not `application/json`.' },
  429: {
    name: 'TooManyRequests',
    description: 'Too many failed attempts (`TOO_MANY_ATTEMPTS`); retry after `Retry-After` seconds.',
    headers: ['RetryAfter'],
  },
  502: {
    name: 'BadGateway',
    description:
      "Object storage refused the service's own request (`STORAGE_REFUSED`): a configuration problem.",
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      'A dependency is down, or the projections did not reach `X-Min-Position` in time; retry after `Retry-After`.',
    headers: ['RetryAfter'],
  },
};

export const errorResponseName = (status: ErrorStatus) => errorDescriptions[status].name;

const keyInProgress =
  '`IDEMPOTENCY_KEY_IN_PROGRESS`: the first request with this `Idempotency-Key` is still running; retry after `Retry-After`';

/** Responses the document builder adds from a route's shape rather than from its `errors`. */
export const derivedResponses = {
  idempotencyKeyReused: {
    name: 'IdempotencyKeyReused',
    description: '`IDEMPOTENCY_KEY_REUSED`: this `Idempotency-Key` was already used with a different body.',
  },
  idempotencyKeyInProgress: {
    name: 'IdempotencyKeyInProgress',
    description: `${keyInProgress}.`,
    headers: ['RetryAfter'],
  },
  conflictOrIdempotencyKeyInProgress: {
    name: 'ConflictOrIdempotencyKeyInProgress',
    description: `Either ${keyInProgress} (sent only with this code). Or the change conflicts with the current state; ${conflictCodes}`,
    headers: ['RetryAfter'],
  },
  notImplemented: {
    name: 'NotImplemented',
    description: '`NOT_IMPLEMENTED`: the route is designed but not served yet; a later release serves it.',
  },
} satisfies Record<string, ResponseComponent>;

export function buildErrorResponses(): Record<string, JsonObject> {
  const responses: Record<string, JsonObject> = {};
  const components: ResponseComponent[] = [
    ...Object.values(errorDescriptions),
    ...Object.values(derivedResponses),
  ];
  for (const { name, description, headers = [] } of components) {
    responses[name] = {
      description,
      ...(headers.length > 0 && { headers: responseHeaderRefs(headers) }),
      content: { 'application/json': { schema: { $ref: schemaRef('Message') } } },
    };
  }
  return responses;
}

export const securitySchemes: Record<string, JsonObject> = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A short-lived JWT from `/api/auth/token`, or an API key `pcs_…` from `/api/auth/api-key/create` for pipelines.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description:
      'The browser session set by `/api/auth/sign-in/email` and `/api/auth/sign-up/email`. Writes with the cookie alone must send `X-CSRF-Token` (from `get-session` or the sign-in answer).',
  },
};
