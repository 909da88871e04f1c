import { randomUUID } from 'node:crypto';
import { settleCommandAt } from './command-answer.js';
import { callAt } from './http.js';

/** A user signed up at a stack of the test's own (auth.ts's helpers speak to the shared stack). */
export interface StackUser {
  readonly userId: string;
  readonly email: string;
  readonly password: string;
  /** The personal organization, active in the session. */
  readonly orgId: string;
  /** Session cookie and CSRF token. */
  readonly headers: Record<string, string>;
}

interface SessionBody {
  user: { id: string; email: string };
  session: { activeOrganizationId: string };
  csrfToken: string;
}

export async function signUpUserAt(baseUrl: string, name: string, label = 'admin-cli'): Promise<StackUser> {
  const email = `${label}-${randomUUID()}@example.org`;
  const password = `pw-${randomUUID()}`;
  const response = await callAt<SessionBody>(baseUrl, 'POST', '/api/auth/sign-up/email', {
    body: { email, password, name },
  });
  await settleCommandAt(baseUrl, response, 201, 'sign-up');
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('session='));
  if (!cookie) throw new Error('sign-up set no session cookie');
  return {
    userId: response.body.user.id,
    email,
    password,
    orgId: response.body.session.activeOrganizationId,
    headers: { cookie, 'x-csrf-token': response.body.csrfToken },
  };
}
