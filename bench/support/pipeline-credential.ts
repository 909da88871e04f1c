import { randomUUID } from 'node:crypto';

/**
 * What a data pipeline sends: `Authorization: Bearer pcs_…`, an owner-role API key of a user signed up
 * for the run (docs/identity.md). Benchmarks measure the service as pipelines meet it, authentication
 * included.
 */
export async function pipelineCredential(baseUrl: string): Promise<Record<string, string>> {
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  const signedUp = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      email: `bench-${randomUUID()}@example.org`,
      password: `pw-${randomUUID()}`,
      name: 'Benchmark pipeline',
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
  const created = await fetch(`${baseUrl}/api/auth/api-key/create`, {
    method: 'POST',
    headers: { ...json, cookie, 'x-csrf-token': session.csrfToken },
    body: JSON.stringify({ name: 'benchmark', role: 'owner' }),
  });
  const key = (await created.json()) as { key?: string };
  if (created.status !== 201 || !key.key) throw new Error(`api-key/create answered ${created.status}`);
  return { authorization: `Bearer ${key.key}` };
}
