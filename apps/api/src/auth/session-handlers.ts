import type { Request, Response } from 'express';
import type { Token } from '@portal/contracts';
import type { ApiDependencies } from '../dependencies.js';
import { callerOf } from './caller.js';
import { requireCredential } from './caller-rules.js';
import { sessionOf } from './session-context.js';
import { clearSessionCookie } from './session-cookie.js';
import { revokeSession } from './session-store.js';
import { sessionViewOf } from './session-view.js';

/** `POST /api/auth/sign-out`: ends the session, and with it every JWT issued from it. */
export async function signOut(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const caller = requireCredential(callerOf(req), ['session', 'jwt'], 'sign out');
  if (caller.sessionId !== null) await revokeSession(deps.pool, caller.sessionId);
  clearSessionCookie(req, res);
  res.json({ success: true });
}

/** `GET /api/auth/get-session`: who the credential belongs to; all nulls for an anonymous caller. */
export async function getSession(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  res.json(await sessionViewOf(deps.pool, req));
}

/**
 * `GET|POST /api/auth/token`: a JWT for the session's user in its active organization. A JWT cannot be
 * traded for another, so a stolen one dies within its lifetime or with its session.
 */
export function issueToken(deps: ApiDependencies, req: Request, res: Response): void {
  const caller = requireCredential(callerOf(req), ['session'], 'get a token');
  const session = sessionOf(req);
  if (caller.orgId === null || caller.sessionId === null || !session) {
    throw new Error('a session caller always has a session and an organization');
  }
  const issued = deps.auth.jwt.issue(
    { sub: caller.userId, org: caller.orgId, role: caller.role, sid: caller.sessionId },
    deps.now(),
  );
  res.setHeader('Cache-Control', 'no-store');
  const body: Token = { token: issued.token, expiresAt: issued.expiresAt.toISOString() };
  res.json(body);
}
