import { inject } from 'vitest';
import { settleCommandAt, waitForPositionAt } from './command-answer.js';

export interface JsonResponse<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export interface CallOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** `'anonymous'` sends no credential even when the file has a signed-in default (`useSignedInCaller`). */
  as?: 'anonymous';
}

/** One HTTP call to a stack at `baseUrl`, exactly as given; the body is parsed as JSON when there is one. */
export async function callAt<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  // Redirects are answers too (an asset download is a 302): the test sees them, it does not follow them.
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  const json = text !== '' && (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, headers: response.headers, body: (json ? JSON.parse(text) : null) as T };
}

// Each test file runs in its own module graph, so this default is the file's own.
let defaultCredential: Record<string, string> | null = null;

/** Headers every `call` of this test file sends unless it names a credential or asks for `anonymous`. */
export function setDefaultCredential(headers: Record<string, string> | null): void {
  defaultCredential = headers;
}

/** The file's default credential headers (none when the file has no signed-in default). */
export function defaultCredentialHeaders(): Record<string, string> {
  return defaultCredential ?? {};
}

function namesCredential(headers: Record<string, string> = {}): boolean {
  return Object.keys(headers).some((name) => ['authorization', 'cookie'].includes(name.toLowerCase()));
}

/**
 * One HTTP call to the shared stack. It carries the file's default credential (see
 * `useSignedInCaller` in auth.ts) unless the call names its own or asks for `as: 'anonymous'`.
 */
export async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<JsonResponse<T>> {
  const useDefault =
    defaultCredential !== null && options.as !== 'anonymous' && !namesCredential(options.headers);
  const headers = useDefault ? { ...defaultCredential, ...options.headers } : options.headers;
  return callAt<T>(inject('baseUrl'), method, path, { ...options, ...(headers ? { headers } : {}) });
}

/**
 * Expects a command to have succeeded with `success` (201 for a create), or with 202 when the
 * projection was slower than the API waits; after a 202 it waits with `X-Min-Position`, so the next
 * request sees the write either way (see command-answer.ts). Returns the response.
 */
export async function expectCommand<T>(
  response: JsonResponse<T>,
  success = 201,
  what = 'command',
): Promise<JsonResponse<T>> {
  await settleCommandAt(inject('baseUrl'), response, success, what);
  return response;
}

/** Waits until the shared stack's read models include `position` (an `X-Event-Position` value). */
export async function waitForPosition(position: string): Promise<void> {
  await waitForPositionAt(inject('baseUrl'), position);
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
  await expectCommand(response, 201, 'create catalog');
  return response.body.portalItemId;
}

export async function createCollection(fields: Record<string, unknown> = {}): Promise<string> {
  const response = await call<{ portalItemId: string }>('POST', '/api/v1/portal/collections/create', {
    body: { title: 'Collection', description: 'A collection', links: [], ...fields },
  });
  await expectCommand(response, 201, 'create collection');
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
