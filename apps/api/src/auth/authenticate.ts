import type { Request, RequestHandler } from 'express';
import { weakerRole } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { HttpProblem } from '../http/problem.js';
import { setCaller, type AuthenticatedCaller } from './caller.js';
import { API_KEY_PREFIX, findUsableApiKey, type AuthenticatedApiKey } from './api-key-store.js';
import { sha256Hex } from './secrets.js';
import { setSession } from './session-context.js';
import { clearSessionCookie, sessionCookieOf } from './session-cookie.js';
import { findSessionByToken, findSessionForToken, type SessionWithUser } from './session-store.js';

/**
 * Sign-up and sign-in always start a new session: a cookie sent to them is neither used nor refused, so
 * an old or planted cookie can neither block a sign-in nor survive it (session fixation).
 */
const SESSION_STARTING_PATHS: ReadonlySet<string> = new Set([
  '/api/auth/sign-in/email',
  '/api/auth/sign-up/email',
]);

/** Whether the request goes to sign-in or sign-up, spelled as express routes it (any case, a trailing slash). */
export function startsSession(req: Request): boolean {
  return SESSION_STARTING_PATHS.has(req.path.replace(/\/+$/, '').toLowerCase());
}

const BEARER = /^Bearer +(\S+) *$/i;

function refused(message: string, bearer: boolean): HttpProblem {
  return new HttpProblem(
    401,
    message,
    'UNAUTHENTICATED',
    undefined,
    bearer ? { 'WWW-Authenticate': 'Bearer error="invalid_token"' } : undefined,
  );
}

function sessionCaller(
  session: SessionWithUser,
  credential: 'session' | 'jwt',
  orgId: string,
): AuthenticatedCaller {
  return {
    userId: session.userId,
    orgId,
    role: session.role,
    credential,
    sessionId: session.publicId,
    apiKeyId: null,
    roleCap: null,
    email: session.email,
    name: session.name,
  };
}

/** The usable key, from the cache or else the database (and then kept). */
async function usableApiKey(deps: ApiDependencies, key: string): Promise<AuthenticatedApiKey | null> {
  const cache = deps.auth.apiKeys;
  const digest = sha256Hex(key);
  const cached = cache.get(digest);
  if (cached) return cached;
  const ticket = cache.ticket();
  const found = await findUsableApiKey(deps.pool, digest);
  if (found) cache.store(digest, found, ticket);
  return found;
}

async function apiKeyCaller(deps: ApiDependencies, key: string): Promise<AuthenticatedCaller> {
  const found = await usableApiKey(deps, key);
  if (!found) {
    throw refused("the API key is unknown, revoked or expired, or its creator's account is disabled", true);
  }
  if (found.creatorRole === null) {
    throw refused("the API key's creator is no longer a member of its organization", true);
  }
  return {
    userId: found.userId,
    orgId: found.orgId,
    role: weakerRole(found.keyRole, found.creatorRole),
    credential: 'api-key',
    sessionId: null,
    apiKeyId: found.id,
    roleCap: found.keyRole,
    email: found.email,
    name: found.name,
  };
}

async function jwtCaller(deps: ApiDependencies, req: Request, token: string): Promise<AuthenticatedCaller> {
  const claims = deps.auth.jwt.verify(token);
  if (!claims) throw refused('the token is invalid or has expired', true);
  const session = await findSessionForToken(deps.pool, claims);
  if (!session)
    throw refused("the token's session was signed out or has expired, or the account is disabled", true);
  setSession(req, session);
  return sessionCaller(session, 'jwt', claims.org);
}

async function bearerCaller(
  deps: ApiDependencies,
  req: Request,
  header: string,
): Promise<AuthenticatedCaller> {
  const credential = BEARER.exec(header)?.[1];
  if (credential === undefined) {
    throw refused('Authorization must be "Bearer <JWT or API key>"', true);
  }
  return credential.startsWith(API_KEY_PREFIX)
    ? apiKeyCaller(deps, credential)
    : jwtCaller(deps, req, credential);
}

/**
 * Finds out who is asking, once per request, and records it for `callerOf`: `Authorization: Bearer`
 * (an API key `pcs_…` or a JWT) first, else the `session` cookie, else anonymous. A credential that is
 * presented but not valid answers 401 on every route, even one an anonymous caller could use: a client
 * that believes it is signed in must learn that it is not. The role is always the member's current one.
 */
export function authenticate(deps: ApiDependencies): RequestHandler {
  return async (req, res, next) => {
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      setCaller(req, await bearerCaller(deps, req, authorization));
      next();
      return;
    }
    const token = sessionCookieOf(req);
    if (token === undefined || startsSession(req)) {
      next();
      return;
    }
    const session = await findSessionByToken(deps.pool, token);
    if (!session) {
      // Dropped, so the browser does not keep sending it and get 401s until someone clears it by hand.
      clearSessionCookie(req, res);
      throw refused(
        'the session has expired or was signed out (or the account is disabled); sign in again',
        false,
      );
    }
    setSession(req, session);
    setCaller(req, sessionCaller(session, 'session', session.activeOrgId));
    next();
  };
}
