import { randomUUID } from 'node:crypto';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** A new user's browser session: its `session` cookie and CSRF token. */
export interface SignedInUser {
  readonly cookie: string;
  readonly csrfToken: string;
}

export async function signUpUser(baseUrl: string, name: string): Promise<SignedInUser> {
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
  if (signedUp.status !== 201 || !cookie || !session.csrfToken) {
    throw new Error(`sign-up for the benchmark answered ${signedUp.status}`);
  }
  return { cookie, csrfToken: session.csrfToken };
}

/**
 * What a data pipeline sends: `Authorization: Bearer pcs_…`, an owner-role API key of a user signed up
 * for the run (docs/identity.md). Benchmarks measure the service as pipelines meet it, authentication
 * included.
 */
export async function pipelineCredential(baseUrl: string): Promise<Record<string, string>> {
  const { cookie, csrfToken } = await signUpUser(baseUrl, 'Benchmark pipeline');
  const created = await fetch(`${baseUrl}/api/auth/api-key/create`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, cookie, 'x-csrf-token': csrfToken },
    body: JSON.stringify({ name: 'benchmark', role: 'owner' }),
  });
  const key = (await created.json()) as { key?: string };
  if (created.status !== 201 || !key.key) throw new Error(`api-key/create answered ${created.status}`);
  return { authorization: `Bearer ${key.key}` };
}
