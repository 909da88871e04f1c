import { messageSchema, type MessageDetail } from '@portal/contracts';
import type { z } from 'zod';

/**
 * An answer of the API that is not a success. `message` is the API's own sentence, shown to the user
 * as it is: the API words every refusal so that it says what to fix (docs/decisions.md).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly details: readonly MessageDetail[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The session's CSRF token: every cookie-authenticated write must send it (docs/identity.md). */
let csrfToken: string | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export type QueryValue = string | number | boolean | readonly string[] | undefined | null;

export interface RequestOptions {
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `?a=1&b=x,y`: list values comma-separated, as the API's filters take them; empty values left out. */
export function queryString(query: Readonly<Record<string, QueryValue>> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(name, value.join(','));
    } else params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = messageSchema.parse(JSON.parse(text));
    return new ApiError(response.status, body.message, body.code, body.details ?? []);
  } catch {
    // Not the API's message object (a proxy's page, a dropped connection): say what we know.
    return new ApiError(response.status, `${response.status} ${response.statusText}`.trim(), undefined, []);
  }
}

export interface ApiResponse<T> {
  readonly body: T;
  readonly headers: Headers;
  readonly status: number;
}

/** The request itself; a refusal becomes an `ApiError` with the API's message. */
async function send(
  method: string,
  path: string,
  options: RequestOptions,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Response> {
  const response = await fetch(`${path}${queryString(options.query)}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body === undefined ? {} : { body }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!response.ok) throw await errorOf(response);
  return response;
}

/** A write the API answers `204 No Content`: there is no body to parse, only the status to check. */
export async function requestNoContent(method: string, path: string): Promise<void> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (WRITE_METHODS.has(method) && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  await send(method, path, {}, headers, undefined);
}

/**
 * One call to the API of this origin. The answer is parsed with the contract's schema, so a response
 * that drifted from `libs/contracts` fails here, loudly, instead of rendering half a page.
 */
export async function requestFull<Schema extends z.ZodType>(
  schema: Schema,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<z.output<Schema>>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (WRITE_METHODS.has(method) && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await send(method, path, options, headers, body);
  const parsed = schema.safeParse(await response.json());
  if (!parsed.success) {
    throw new ApiError(
      response.status,
      `the answer of ${method} ${path} does not match the API contract: ${parsed.error.message}`,
      'CONTRACT_MISMATCH',
      [],
    );
  }
  return { body: parsed.data, headers: response.headers, status: response.status };
}

export async function request<Schema extends z.ZodType>(
  schema: Schema,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<z.output<Schema>> {
  return (await requestFull(schema, method, path, options)).body;
}

/** The message to show for any failure: the API's own words when it answered. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
