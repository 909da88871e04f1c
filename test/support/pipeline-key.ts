import { randomUUID } from 'node:crypto';
import { settleCommandAt } from './command-answer.js';

/**
 * Credentials at a stack's base URL, with plain `fetch` and no vitest import, so benchmarks (which run
 * outside vitest) and end-to-end tests share them.
 */

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** A new user's browser session: its `session` cookie and CSRF token. */
export interface SignedInSession {
  readonly cookie: string;
  readonly csrfToken: string;
}

export async function signUpAt(baseUrl: string, name: string): Promise<SignedInSession> {
  const signedUp = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      email: `bench-${randomUUID()}@example.org`,
      password: `pw-${randomUUID()}`,
      name,
    }),
  });
  const session = (await signedUp.json()) as { csrfToken?: string };
  const cookie = signedUp.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('session='));
  await settleCommandAt(
    baseUrl,
    { status: signedUp.status, headers: signedUp.headers, body: session },
    201,
    'sign-up',
  );
  if (!cookie || !session.csrfToken) throw new Error('sign-up set no session cookie or CSRF token');
  return { cookie, csrfToken: session.csrfToken };
}

/**
 * What a data pipeline sends: `Authorization: Bearer pcs_…`, an owner-role API key of a new user
 * (docs/identity.md). Benchmarks measure the service as pipelines meet it, authentication included.
 */
export async function pipelineKeyAt(baseUrl: string): Promise<Record<string, string>> {
  const { cookie, csrfToken } = await signUpAt(baseUrl, 'Pipeline');
  const created = await fetch(`${baseUrl}/api/auth/api-key/create`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, cookie, 'x-csrf-token': csrfToken },
    body: JSON.stringify({ name: 'pipeline', role: 'owner' }),
  });
  const key = (await created.json()) as { key?: string };
  await settleCommandAt(
    baseUrl,
    { status: created.status, headers: created.headers, body: key },
    201,
    'api-key/create',
  );
  if (!key.key) throw new Error('api-key/create answered no key');
  return { authorization: `Bearer ${key.key}` };
}
