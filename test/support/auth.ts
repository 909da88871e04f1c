import { randomUUID } from 'node:crypto';
import { beforeAll } from 'vitest';
import { call, expectCommand, setDefaultCredential, type JsonResponse } from './http.js';

/**
 * Signed-in users for end-to-end tests. Every helper speaks HTTP only; pass a credential's `headers` to
 * `call(…, { headers })`. Each user is new (fresh email), so tests never share one by accident.
 */

export type Role = 'viewer' | 'editor' | 'admin' | 'owner';

export interface SignedInUser {
  readonly userId: string;
  readonly email: string;
  readonly password: string;
  readonly name: string;
  /** The personal organization, active after sign-up and sign-in. */
  readonly orgId: string;
  /** `session=<secret>`, as a `Cookie` header value. */
  readonly cookie: string;
  readonly csrfToken: string;
  /** Cookie and CSRF token: what a browser sends; good for every method. */
  readonly headers: Record<string, string>;
}

export interface Bearer {
  readonly token: string;
  /** `Authorization: Bearer …`. */
  readonly headers: Record<string, string>;
}

interface SessionBody {
  user: { id: string; email: string; name: string };
  session: { id: string; activeOrganizationId: string };
  csrfToken: string;
}

function expectStatus(response: JsonResponse, status: number, what: string): void {
  if (response.status !== status) {
    throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

/** The `session=…` pair of a response's Set-Cookie. */
export function sessionCookieOf(response: JsonResponse): string {
  const pair = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .find((cookie) => cookie.startsWith('session='));
  if (!pair) throw new Error('the response set no session cookie');
  return pair;
}

function signedIn(response: JsonResponse<SessionBody>, password: string): SignedInUser {
  const cookie = sessionCookieOf(response);
  const { user, session, csrfToken } = response.body;
  return {
    userId: user.id,
    email: user.email,
    password,
    name: user.name,
    orgId: session.activeOrganizationId,
    cookie,
    csrfToken,
    headers: { cookie, 'x-csrf-token': csrfToken },
  };
}

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomUUID()}@example.org`;
}

/** A new user with a personal organization, signed in (a session cookie). */
export async function signUp(
  fields: { email?: string; password?: string; name?: string } = {},
): Promise<SignedInUser> {
  const email = fields.email ?? uniqueEmail();
  const password = fields.password ?? `pw-${randomUUID()}`;
  const name = fields.name ?? 'Test User';
  const response = await call<SessionBody>('POST', '/api/auth/sign-up/email', {
    as: 'anonymous',
    body: { email, password, name },
  });
  await expectCommand(response, 201, 'sign-up');
  return signedIn(response, password);
}

/** A new session for an existing user, in their personal organization. */
export async function signIn(user: { email: string; password: string }): Promise<SignedInUser> {
  const response = await call<SessionBody>('POST', '/api/auth/sign-in/email', {
    as: 'anonymous',
    body: { email: user.email, password: user.password },
  });
  expectStatus(response, 200, 'sign-in');
  return signedIn(response, user.password);
}

/** A JWT for the user's session, in its active organization. */
export async function jwtOf(user: SignedInUser): Promise<Bearer> {
  const response = await call<{ token: string }>('POST', '/api/auth/token', { headers: user.headers });
  expectStatus(response, 200, 'token');
  const { token } = response.body;
  return { token, headers: { authorization: `Bearer ${token}` } };
}

/** An API key of the user's active organization (the user must be admin or owner there). */
export async function apiKey(
  user: SignedInUser,
  options: { role?: Role; name?: string; expiresInDays?: number } = {},
): Promise<Bearer & { readonly id: string }> {
  const response = await call<{ id: string; key: string }>('POST', '/api/auth/api-key/create', {
    headers: user.headers,
    body: { name: options.name ?? 'pipeline', role: options.role ?? 'editor', ...options },
  });
  await expectCommand(response, 201, 'api-key/create');
  const { id, key } = response.body;
  return { id, token: key, headers: { authorization: `Bearer ${key}` } };
}

/** A new organization owned by the user (not made active). */
export async function createOrganization(user: SignedInUser, name = 'Team'): Promise<string> {
  const response = await call<{ id: string }>('POST', '/api/auth/organization/create', {
    headers: user.headers,
    body: { name },
  });
  await expectCommand(response, 201, 'organization/create');
  return response.body.id;
}

/** Makes `orgId` the session's active organization; the user's headers stay valid. */
export async function setActiveOrganization(user: SignedInUser, orgId: string): Promise<SignedInUser> {
  const response = await call('POST', '/api/auth/organization/set-active', {
    headers: user.headers,
    body: { organizationId: orgId },
  });
  expectStatus(response, 200, 'organization/set-active');
  return { ...user, orgId };
}

/**
 * Puts `member` into the admin's active organization with `role` (invitation and acceptance) and makes it
 * the member's active organization. Returns the member acting there.
 */
export async function addMember(
  admin: SignedInUser,
  member: SignedInUser,
  role: Role,
): Promise<SignedInUser> {
  const invited = await call<{ id: string }>('POST', '/api/auth/organization/invite-member', {
    headers: admin.headers,
    body: { email: member.email, role },
  });
  await expectCommand(invited, 201, 'organization/invite-member');
  const accepted = await call('POST', '/api/auth/organization/accept-invitation', {
    headers: member.headers,
    body: { invitationId: invited.body.id },
  });
  await expectCommand(accepted, 200, 'organization/accept-invitation');
  return setActiveOrganization(member, admin.orgId);
}

/**
 * Makes every `call` of the test file act as a pipeline: a new user's owner-role API key in their
 * personal organization. Objects the file creates belong to that organization (visibility `org`).
 * Returns the user, once the file's `beforeAll` has run.
 */
export function useSignedInCaller(): { readonly user: () => SignedInUser } {
  let signedInUser: SignedInUser | null = null;
  beforeAll(async () => {
    signedInUser = await signUp({ name: 'Pipeline Owner' });
    setDefaultCredential((await apiKey(signedInUser, { role: 'owner', name: 'e2e default' })).headers);
  });
  return {
    user: () => {
      if (!signedInUser) throw new Error('useSignedInCaller: the beforeAll has not run yet');
      return signedInUser;
    },
  };
}

/** An owner-role API key of a new user at a stack of its own (tests that start their own stack). */
export { pipelineKeyAt } from './pipeline-key.js';
