import type { Request } from 'express';
import type { SessionWithUser } from './session-store.js';

// Beside the caller, not in it: the CSRF token and the session's dates matter to the auth routes only.
const sessions = new WeakMap<Request, SessionWithUser>();

/** The session behind the request's cookie or JWT; `null` for API keys and anonymous callers. */
export function sessionOf(req: Request): SessionWithUser | null {
  return sessions.get(req) ?? null;
}

export function setSession(req: Request, session: SessionWithUser): void {
  sessions.set(req, session);
}
