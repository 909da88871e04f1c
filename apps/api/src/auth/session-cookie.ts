import type { CookieOptions, Request, Response } from 'express';

export const SESSION_COOKIE = 'session';

/**
 * HttpOnly (no script reads it), SameSite=Lax (no cross-site subrequest carries it), the whole site, and
 * Secure whenever the request came over HTTPS — behind a proxy, `TRUST_PROXY` decides whether its
 * `X-Forwarded-Proto` counts.
 */
function cookieOptions(req: Request): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure };
}

export function setSessionCookie(req: Request, res: Response, token: string, expiresAt: Date): void {
  res.cookie(SESSION_COOKIE, token, { ...cookieOptions(req), expires: expiresAt });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req));
}

/** The cookie's value; `undefined` when absent or emptied (a cleared cookie some clients send back). */
export function sessionCookieOf(req: Request): string | undefined {
  const cookies = req.cookies as Record<string, unknown> | undefined;
  const value = cookies?.[SESSION_COOKIE];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
