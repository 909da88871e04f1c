import type { Request, RequestHandler } from 'express';
import { sessionCookieOf } from './session-cookie.js';

const AUTH_PREFIX = '/api/auth/';

/** Whether the request presents a credential: its answer may be meant for that caller alone. */
function presentsCredential(req: Request): boolean {
  return req.headers.authorization !== undefined || sessionCookieOf(req) !== undefined;
}

/**
 * Who may keep a response (docs/decisions.md, "Caching"). Every answer can depend on the caller, so
 * every response varies by `Authorization` and `Cookie`: no cache hands one caller's answer to another.
 * `/api/auth/*` answers (sessions, CSRF and JWT tokens, API keys) are never stored; neither is any
 * answer to a request carrying a credential (`private, no-store`: not by a shared cache, and not on the
 * disk of a shared browser). Anonymous reads of public objects keep their default and may be cached.
 * A route may still set a stricter header of its own (downloads, streams).
 */
export const cachePolicy: RequestHandler = (req, res, next) => {
  res.vary('Authorization');
  res.vary('Cookie');
  if (req.path.toLowerCase().startsWith(AUTH_PREFIX)) res.setHeader('Cache-Control', 'no-store');
  else if (presentsCredential(req)) res.setHeader('Cache-Control', 'private, no-store');
  next();
};
