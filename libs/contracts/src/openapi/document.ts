import { z } from 'zod';
import { authRoutes } from './auth-routes.js';
import { auditRoutes } from './audit-routes.js';
import { browserRoutes } from './browser-routes.js';
import { eventRoutes } from './events-routes.js';
import { historyRoutes } from './history-routes.js';
import { portalRoutes } from './portal-routes.js';
import type { JsonObject, Route } from './route.js';
import { buildComponentSchemas, componentNameOf, schemaRef } from './schemas.js';
import { serviceRoutes } from './service-routes.js';
import { stacRoutes } from './stac-routes.js';
import { uploadRoutes } from './upload-routes.js';
import { webhookRoutes } from './webhook-routes.js';
import {
  buildErrorResponses,
  buildResponseHeaders,
  derivedResponses,
  errorResponseName,
  headerParameters,
  pathParameters,
  responseHeaderRefs,
  securitySchemes,
} from './shared-components.js';

export const API_VERSION = '1.0.0';

export const routes: readonly Route[] = [
  ...portalRoutes,
  ...historyRoutes,
  ...auditRoutes,
  ...eventRoutes,
  ...uploadRoutes,
  ...serviceRoutes,
  ...browserRoutes,
  ...authRoutes,
  ...webhookRoutes,
  ...stacRoutes,
];

const tags = [
  { name: 'catalogs', description: 'Catalogs: containers of catalogs, collections and items.' },
  { name: 'collections', description: 'Collections: STAC-like containers of items.' },
  { name: 'items', description: 'Every portal object read and changed as a portal item; item uploads.' },
  { name: 'browser', description: 'Tree navigation: root, children, breadcrumbs, path lookup.' },
  {
    name: 'auth',
    description: 'Sign-up, sign-in, sessions, tokens, API keys, organizations and their members.',
  },
  { name: 'users', description: 'The current user.' },
  { name: 'audit', description: "The organization's audit trail, for its admins and owners." },
  { name: 'webhooks', description: "The organization's webhook endpoints and their deliveries." },
  { name: 'events', description: 'Changes as Server-Sent Events, resumable with `Last-Event-ID`.' },
  {
    name: 'stac',
    description: 'STAC API 1.0: landing page, collections, items, item search, children (docs/stac.md).',
  },
  { name: 'service', description: 'Service description, batch commands, health and this document.' },
];

const jsonBody = (schema: z.ZodType, mediaType = 'application/json') => ({
  [mediaType]: { schema: { $ref: schemaRef(componentNameOf(schema)) } },
});

/** One query parameter per property of the query schema, converted as input (strings, before defaults). */
function queryParameters(query: z.ZodObject): JsonObject[] {
  const json = z.toJSONSchema(query, { target: 'draft-2020-12', io: 'input' }) as {
    properties?: Record<string, JsonObject>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, { description, ...schema }]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    ...(typeof description === 'string' && { description }),
    schema,
  }));
}

const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

function buildResponses(route: Route): JsonObject {
  const responses: JsonObject = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    responses[status] = {
      description: spec.description,
      ...(spec.headers !== undefined && { headers: responseHeaderRefs(spec.headers) }),
      ...((spec.schema !== undefined || spec.otherMediaTypes !== undefined) && {
        content: { ...(spec.schema !== undefined && jsonBody(spec.schema)), ...spec.otherMediaTypes },
      }),
    };
  }
  for (const status of route.errors) responses[String(status)] = responseRef(errorResponseName(status));
  if (route.headers?.includes('IdempotencyKey') === true) {
    responses['422'] = responseRef(derivedResponses.idempotencyKeyReused.name);
    responses['409'] = responseRef(
      route.errors.includes(409)
        ? derivedResponses.conflictOrIdempotencyKeyInProgress.name
        : derivedResponses.idempotencyKeyInProgress.name,
    );
  }
  if (route.notServedYet !== undefined) responses['501'] = responseRef(derivedResponses.notImplemented.name);
  return responses;
}

function descriptionOf(route: Route): string | undefined {
  if (route.notServedYet === undefined) return route.description;
  const pending = `Not served yet: answers 501 until ${route.notServedYet} lands.`;
  return route.description === undefined ? pending : `${route.description} ${pending}`;
}

function buildOperation(route: Route): JsonObject {
  const parameters = [
    ...(route.pathParameters ?? []).map((name) => ({ $ref: `#/components/parameters/${name}` })),
    ...(route.query === undefined ? [] : queryParameters(route.query)),
    ...(route.headers ?? []).map((name) => ({ $ref: `#/components/parameters/${name}` })),
  ];
  const description = descriptionOf(route);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(description !== undefined && { description }),
    tags: [route.tag],
    ...(route.public === true && { security: [] }),
    ...(parameters.length > 0 && { parameters }),
    ...(route.body !== undefined && {
      requestBody: { required: true, content: jsonBody(route.body, route.bodyMediaType) },
    }),
    responses: buildResponses(route),
  };
}

function buildPaths(): Record<string, JsonObject> {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    if (route.method in item)
      throw new Error(`${route.method.toUpperCase()} ${route.path} is declared twice`);
    item[route.method] = buildOperation(route);
  }
  return paths;
}

/** What holds for every operation, said once rather than repeated on each. */
const documentDescription = [
  'HTTP JSON API of a geospatial data portal: catalogs, collections and items in a tree, uploads, browser navigation. Commands answer `X-Event-Position` and `ETag`; reads accept `X-Min-Position` to see a write.',
  'Every path answers a method it does not accept with 405 and an `Allow` header listing those it does (the `MethodNotAllowed` response); an unknown path answers 404. Both carry the message object.',
  'Strings in request bodies, including the keys and values of `linkJson` at any depth, must not contain NUL (`\\u0000`) or unpaired UTF-16 surrogates, which PostgreSQL cannot store: such a body answers 400 naming the field.',
  "Credentials: the `session` cookie (from sign-up or sign-in), `Authorization: Bearer <JWT>` (from `/api/auth/token`) or `Authorization: Bearer pcs_…` (an API key). A credential that is presented but expired, forged, revoked or unknown answers 401 on every operation, even one an anonymous caller may use. A write authenticated by the cookie alone must send `X-CSRF-Token` (from `get-session` or the sign-in answer), and its `Origin`, when sent, must be the API's own or one of `CORS_ORIGINS`; otherwise 403.",
].join('\n\n');

/** The OpenAPI 3.1.1 document of the whole HTTP surface, built from the zod schemas. */
export function buildOpenApiDocument(): JsonObject {
  return {
    openapi: '3.1.1',
    info: {
      title: 'Portal Catalog Service',
      version: API_VERSION,
      description: documentDescription,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    tags,
    paths: buildPaths(),
    components: {
      schemas: buildComponentSchemas(),
      responses: buildErrorResponses(),
      parameters: { ...pathParameters, ...headerParameters },
      headers: buildResponseHeaders(),
      securitySchemes,
    },
  };
}
