import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { linkSchema } from '../link.js';
import { buildOpenApiDocument } from './document.js';
import type { JsonObject } from './route.js';
import { buildComponentSchemas } from './schemas.js';
import { serializeOpenApiDocument } from './serialize.js';

const document = buildOpenApiDocument();
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolvePointer(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}

/** Follows a `$ref` (once is enough: components here never point at other refs at top level). */
function deref(value: unknown): JsonObject {
  if (isObject(value) && typeof value.$ref === 'string') return deref(resolvePointer(value.$ref));
  if (!isObject(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value;
}

function collectRefs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const element of value) collectRefs(element, found);
  else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.push(child);
      else collectRefs(child, found);
    }
  }
  return found;
}

const paths = document.paths as Record<string, JsonObject>;

function operations(): { method: string; path: string; operation: JsonObject }[] {
  return Object.entries(paths).flatMap(([path, item]) =>
    methods
      .filter((method) => method in item)
      .map((method) => ({ method, path, operation: deref(item[method]) })),
  );
}

function operation(method: string, path: string): JsonObject {
  const item = paths[path];
  if (item === undefined || !(method in item)) throw new Error(`${method.toUpperCase()} ${path} is missing`);
  return deref(item[method]);
}

function parameterNames(op: JsonObject, location: string): string[] {
  const parameters = Array.isArray(op.parameters) ? op.parameters : [];
  return parameters
    .map(deref)
    .flatMap((parameter) => (parameter.in === location ? [String(parameter.name)] : []));
}

function responseOf(op: JsonObject, status: string): JsonObject | undefined {
  const responses = deref(op.responses);
  return status in responses ? deref(responses[status]) : undefined;
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1.1 of API version 1.0.0', () => {
    expect(document.openapi).toBe('3.1.1');
    expect(deref(document.info).version).toBe('1.0.0');
  });

  it('resolves every $ref', () => {
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(100);
    expect(refs.filter((ref) => resolvePointer(ref) === undefined)).toEqual([]);
  });

  it.each([
    ['post', '/api/v1/portal/catalogs/create'],
    ['post', '/api/v1/portal/collections/create'],
    ['post', '/api/v1/portal/items/create'],
    ['get', '/api/v1/portal/catalogs/'],
    ['delete', '/api/v1/portal/catalogs/'],
    ['get', '/api/v1/portal/catalogs/{id}'],
    ['get', '/api/v1/collections/{id}'],
    ['get', '/api/v1/portal/items/'],
    ['get', '/api/v1/portal/items/{id}'],
    ['patch', '/api/v1/portal/items/{id}'],
    ['delete', '/api/v1/portal/items/{id}'],
    ['post', '/api/v1/portal/items/{id}/move'],
    ['get', '/api/v1/portal/inventory/'],
    ['get', '/health'],
    ['get', '/health/ready'],
    ['get', '/'],
    ['post', '/'],
    ['get', '/api/v1/openapi.json'],
    ['get', '/api/v1/docs'],
    ['get', '/api/v1/protected'],
    ['get', '/api/v1/users/me'],
    ['get', '/api/v1/browser/root'],
    ['get', '/api/v1/browser/nodes/{nodeId}/children'],
    ['get', '/api/v1/browser/nodes/{nodeId}/breadcrumbs'],
    ['get', '/api/v1/browser/path/{path}'],
    ['get', '/api/v1/portal/browser/'],
    ['get', '/browser/root'],
    ['get', '/browser/nodes/{nodeId}/children'],
    ['get', '/browser/nodes/{nodeId}/breadcrumbs'],
    ['get', '/browser/path/{path}'],
    ['post', '/api/auth/sign-up/email'],
    ['post', '/api/auth/sign-in/email'],
    ['post', '/api/auth/sign-out'],
    ['get', '/api/auth/get-session'],
    ['get', '/api/auth/token'],
    ['post', '/api/auth/token'],
    ['post', '/api/auth/api-key/create'],
    ['get', '/api/auth/api-key/list'],
    ['post', '/api/auth/api-key/revoke'],
    ['post', '/api/auth/organization/create'],
    ['get', '/api/auth/organization/list'],
    ['post', '/api/auth/organization/set-active'],
    ['post', '/api/auth/organization/invite-member'],
    ['post', '/api/auth/organization/accept-invitation'],
    ['get', '/api/auth/organization/list-invitations'],
    ['post', '/api/auth/organization/cancel-invitation'],
    ['post', '/api/auth/organization/update-member-role'],
    ['post', '/api/auth/organization/remove-member'],
    ['get', '/api/auth/organization/list-members'],
    ['post', '/api/auth/organization/has-permission'],
  ])('has %s %s', (method, path) => {
    expect(operation(method, path).responses).toBeDefined();
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations().map(({ operation: op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares every path template parameter on every operation of the path', () => {
    for (const { method, path, operation: op } of operations()) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(parameterNames(op, 'path').sort(), `${method} ${path}`).toEqual(templated.sort());
    }
  });

  it('answers 413 and 415 exactly where a JSON body is taken', () => {
    for (const { method, path, operation: op } of operations()) {
      const hasBody = op.requestBody !== undefined;
      expect(
        [responseOf(op, '413') !== undefined, responseOf(op, '415') !== undefined],
        `${method} ${path}`,
      ).toEqual([hasBody, hasBody]);
    }
  });

  it('answers 412 exactly where If-Match is taken', () => {
    for (const { method, path, operation: op } of operations()) {
      const takesIfMatch = parameterNames(op, 'header').includes('If-Match');
      expect(responseOf(op, '412') !== undefined, `${method} ${path}`).toBe(takesIfMatch);
    }
    expect(parameterNames(operation('patch', '/api/v1/portal/items/{id}'), 'header')).toContain('If-Match');
  });

  it('answers 503 with Retry-After wherever X-Min-Position is taken', () => {
    const reads = operations().filter(({ operation: op }) =>
      parameterNames(op, 'header').includes('X-Min-Position'),
    );
    expect(reads.length).toBeGreaterThanOrEqual(10);
    for (const { method, path, operation: op } of reads) {
      expect(Object.keys(deref(responseOf(op, '503')?.headers)), `${method} ${path}`).toContain(
        'Retry-After',
      );
    }
  });

  it.each([
    ['/api/v1/portal/catalogs/create', 'CreateCatalogRequest', 'CreatedObject'],
    ['/api/v1/portal/collections/create', 'CreateCollectionRequest', 'CreatedObject'],
    ['/api/v1/portal/items/create', 'CreateItemRequest', 'CreateItemResponse'],
  ])(
    'POST %s: %s → 201/202 %s with position, idempotency and async preference',
    (path, request, response) => {
      const op = operation('post', path);
      expect(deref(op.requestBody).content).toEqual({
        'application/json': { schema: { $ref: `#/components/schemas/${request}` } },
      });
      for (const status of ['201', '202']) {
        expect(deref(responseOf(op, status)?.content)).toEqual({
          'application/json': { schema: { $ref: `#/components/schemas/${response}` } },
        });
        expect(Object.keys(deref(responseOf(op, status)?.headers))).toContain('X-Event-Position');
      }
      expect(Object.keys(deref(responseOf(op, '201')?.headers))).toContain('ETag');
      expect(parameterNames(op, 'header')).toEqual(['Idempotency-Key', 'Prefer']);
      expect(Object.keys(deref(op.responses))).toEqual(
        expect.arrayContaining(['400', '401', '409', '413', '415', '422', '503']),
      );
    },
  );

  it.each([
    ['/api/v1/portal/catalogs/create'],
    ['/api/v1/portal/collections/create'],
    ['/api/v1/portal/items/create'],
  ])('POST %s: an unknown parent is 409 PARENT_NOT_FOUND, and there is no 404', (path) => {
    const op = operation('post', path);
    expect(op.description).toContain('409 `PARENT_NOT_FOUND`');
    expect(responseOf(op, '404')).toBeUndefined();
    expect(responseOf(op, '409')?.description).toContain('`PARENT_NOT_FOUND`');
  });

  it('never documents 404 for a missing parent; 404 stays for an unknown {id}', () => {
    for (const { method, path, operation: op } of operations()) {
      expect(String(op.description), `${method} ${path}`).not.toMatch(/404[^.;]*parent/i);
    }
    const move = operation('post', '/api/v1/portal/items/{id}/move');
    expect(move.description).toContain('409 `PARENT_NOT_FOUND`');
    expect(responseOf(move, '404')).toBeDefined();
    const conflict = deref(resolvePointer('#/components/responses/Conflict'));
    for (const code of [
      'PARENT_NOT_FOUND',
      'INVALID_PARENT_KIND',
      'DEPTH_EXCEEDED',
      'CYCLE',
      'NOT_EMPTY',
      'ALREADY_EXISTS',
      'CONCURRENCY_CONFLICT',
    ]) {
      expect(conflict.description).toContain(`\`${code}\``);
    }
  });

  it('answers 422 (key reused) and 409 with Retry-After (key in progress) wherever Idempotency-Key is taken', () => {
    const idempotent = operations().filter(({ operation: op }) =>
      parameterNames(op, 'header').includes('Idempotency-Key'),
    );
    expect(idempotent.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      'post /',
      'post /api/v1/portal/catalogs/create',
      'post /api/v1/portal/collections/create',
      'post /api/v1/portal/items/create',
    ]);
    for (const { method, path, operation: op } of idempotent) {
      expect(responseOf(op, '422')?.description, `${method} ${path}`).toContain('`IDEMPOTENCY_KEY_REUSED`');
      const conflict = responseOf(op, '409');
      expect(conflict?.description, `${method} ${path}`).toContain('`IDEMPOTENCY_KEY_IN_PROGRESS`');
      expect(Object.keys(deref(conflict?.headers)), `${method} ${path}`).toContain('Retry-After');
    }
    for (const { method, path, operation: op } of operations()) {
      if (idempotent.some((entry) => entry.operation === op)) continue;
      expect(responseOf(op, '422'), `${method} ${path}`).toBeUndefined();
    }
  });

  it('keeps domain conflicts on creates next to the idempotency conflict, and only that on the batch', () => {
    const create = responseOf(operation('post', '/api/v1/portal/catalogs/create'), '409');
    expect(create?.description).toContain('`PARENT_NOT_FOUND`');
    const batch = responseOf(operation('post', '/'), '409');
    expect(batch?.description).not.toContain('`PARENT_NOT_FOUND`');
  });

  it('says once that any path answers a wrong method with 405 and Allow', () => {
    expect(deref(document.info).description).toMatch(/405 and an `Allow` header/);
    const methodNotAllowed = deref(resolvePointer('#/components/responses/MethodNotAllowed'));
    expect(Object.keys(deref(methodNotAllowed.headers))).toEqual(['Allow']);
  });

  it('says that request strings must be storable (no NUL, no unpaired surrogates)', () => {
    expect(deref(document.info).description).toMatch(/NUL .* unpaired UTF-16 surrogates/);
  });

  const notServedYet: [string, string, string][] = [];

  it.skipIf(notServedYet.length === 0).each(notServedYet)(
    '%s %s: answers 501 until %s lands, keeping its designed shape',
    (method, path, issue) => {
      const op = operation(method, path);
      expect(op.description).toMatch(new RegExp(`Not served yet: answers 501 until ${issue} lands\\.$`));
      const notImplemented = responseOf(op, '501');
      expect(notImplemented?.description).toContain('`NOT_IMPLEMENTED`');
      expect(notImplemented?.content).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/Message' } },
      });
      expect(responseOf(op, '200') ?? responseOf(op, '201')).toBeDefined();
    },
  );

  it('answers 501 on no operation the API serves', () => {
    const served = operations().filter(
      ({ method, path }) => !notServedYet.some(([m, p]) => m === method && p === path),
    );
    for (const { method, path, operation: op } of served) {
      expect(responseOf(op, '501'), `${method} ${path}`).toBeUndefined();
      expect(String(op.description), `${method} ${path}`).not.toContain('Not served yet');
    }
  });

  it('documents readiness as the API answers it: 200 ready or degraded, 503 not-ready', () => {
    const op = operation('get', '/health/ready');
    for (const status of ['200', '503']) {
      expect(deref(responseOf(op, status)?.content)).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/Readiness' } },
      });
    }
    expect(responseOf(op, '200')?.description).toMatch(/`ready`.*`degraded`/);
    expect(responseOf(op, '503')?.description).toContain('`not-ready`');
    const readiness = deref(resolvePointer('#/components/schemas/Readiness'));
    expect(deref(deref(readiness.properties).status).enum).toEqual(['ready', 'degraded', 'not-ready']);
    expect(readiness.required).toEqual(['status', 'checks']);
    const check = deref(resolvePointer('#/components/schemas/DependencyCheck'));
    expect(Object.keys(deref(check.properties))).toEqual(['ok', 'detail', 'error']);
    expect(check.required).toEqual(['ok']);
  });

  it('lets collection record links carry a title and page links a type', () => {
    const collectionLink = deref(resolvePointer('#/components/schemas/CollectionLink'));
    expect(Object.keys(deref(collectionLink.properties))).toEqual(['href', 'rel', 'type', 'title']);
    expect(collectionLink.required).toEqual(['href', 'rel', 'type']);
    const pageLink = deref(resolvePointer('#/components/schemas/PageLink'));
    expect(Object.keys(deref(pageLink.properties))).toEqual(['rel', 'href', 'type']);
    expect(pageLink.required).toEqual(['rel', 'href']);
  });

  it('answers errors with the message object', () => {
    const responses = deref(deref(document.components).responses);
    for (const response of Object.values(responses)) {
      expect(deref(response).content).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/Message' } },
      });
    }
  });

  it('offers bearer JWT and the session cookie, and leaves public operations open', () => {
    expect(deref(deref(document.components).securitySchemes)).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }) as unknown,
      sessionCookie: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'session' }) as unknown,
    });
    expect(document.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    for (const [method, path] of [
      ['get', '/'],
      ['get', '/health'],
      ['get', '/health/ready'],
      ['get', '/api/v1/openapi.json'],
      ['get', '/api/v1/docs'],
      ['post', '/api/auth/sign-up/email'],
      ['post', '/api/auth/sign-in/email'],
      ['get', '/api/auth/get-session'],
    ] as const) {
      expect(operation(method, path).security, `${method} ${path}`).toEqual([]);
    }
    expect(operation('get', '/api/v1/portal/items/{id}').security).toBeUndefined();
  });

  it('describes the link object with the contract bounds', () => {
    const link = deref(resolvePointer('#/components/schemas/Link'));
    expect(link.required).toEqual(['title', 'href', 'rel', 'type', 'targetType', 'linkJson']);
    expect(link.additionalProperties).toBe(false);
    const properties = deref(link.properties);
    expect(properties.href).toMatchObject({ type: 'string', minLength: 1, maxLength: 2048 });
    expect(properties.targetType).toMatchObject({ type: 'string', minLength: 1, maxLength: 140 });
    expect(properties.linkJson).toMatchObject({ type: 'object' });
  });

  it('documents query parameters from the query schemas', () => {
    const list = operation('get', '/api/v1/portal/catalogs/');
    expect(parameterNames(list, 'query')).toEqual(['limit', 'cursor', 'parentId']);
    const limit = (list.parameters as unknown[]).map(deref).find((parameter) => parameter.name === 'limit');
    expect(limit?.schema).toEqual({ type: 'integer', minimum: 1, maximum: 1000, default: 50 });
    expect(parameterNames(operation('delete', '/api/v1/portal/catalogs/'), 'query')).toEqual([
      'ids',
      'recursive',
    ]);
    expect(parameterNames(operation('delete', '/api/v1/portal/items/{id}'), 'query')).toEqual(['recursive']);
  });

  it('strips the standalone-document keywords from components', () => {
    const schemas = deref(deref(document.components).schemas);
    for (const [name, schema] of Object.entries(schemas)) {
      expect(Object.keys(deref(schema)), name).not.toContain('$schema');
      expect(Object.keys(deref(schema)), name).not.toContain('$id');
    }
  });

  it('refuses one component name with different request and response shapes', () => {
    const other = z.object({ href: z.string() });
    expect(() => buildComponentSchemas({ Link: linkSchema }, { Link: other })).toThrow(/Link differs/);
  });
});

describe('openapi.json', () => {
  it('matches the generated document (run `npm run openapi` after changing a schema)', () => {
    const committed = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(serializeOpenApiDocument(buildOpenApiDocument()));
  });

  it('serializes with sorted keys, field order kept, two-space indentation and a final newline', () => {
    const text = serializeOpenApiDocument({
      openapi: '3.1.1',
      info: { version: '1', title: 't' },
      components: { schemas: { B: { type: 'object', properties: { z: {}, a: {} } }, A: {} } },
    });
    expect(text).toBe(
      `${JSON.stringify(
        {
          openapi: '3.1.1',
          info: { title: 't', version: '1' },
          components: { schemas: { A: {}, B: { properties: { z: {}, a: {} }, type: 'object' } } },
        },
        null,
        2,
      )}\n`,
    );
  });
});
