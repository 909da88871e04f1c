import { inject } from 'vitest';

export interface JsonResponse<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

/** One HTTP call to the running stack; the body is parsed as JSON when there is one. */
export async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${inject('baseUrl')}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

export function link(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Documentation',
    href: 'https://example.org/docs',
    rel: 'describedby',
    type: 'text/html',
    targetType: 'web',
    linkJson: {},
    ...overrides,
  };
}

export async function createCatalog(fields: Record<string, unknown> = {}): Promise<string> {
  const response = await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
    body: { title: 'Catalog', description: 'A catalog', links: [], ...fields },
  });
  if (response.status !== 201)
    throw new Error(`create catalog: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.portalItemId;
}

export async function createCollection(fields: Record<string, unknown> = {}): Promise<string> {
  const response = await call<{ portalItemId: string }>('POST', '/api/v1/portal/collections/create', {
    body: { title: 'Collection', description: 'A collection', links: [], ...fields },
  });
  if (response.status !== 201)
    throw new Error(`create collection: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.portalItemId;
}

/** Asserts a response body validates against the schema the OpenAPI document publishes for it. */
export function expectMatchesContract(
  schema: { safeParse(value: unknown): { success: boolean; error?: unknown } },
  body: unknown,
): void {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new Error(`response does not match its published schema: ${String(parsed.error)}`);
}
