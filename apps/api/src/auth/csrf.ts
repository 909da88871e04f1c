import type { RequestHandler } from 'express';
import { HttpProblem } from '../http/problem.js';
import { callerOf } from './caller.js';
import { startsSession } from './authenticate.js';
import { isTrustedOrigin, type OriginSettings } from './origins.js';
import { constantTimeEqual } from './secrets.js';
import { sessionOf } from './session-context.js';

export const CSRF_HEADER = 'x-csrf-token';

/** Methods that change nothing; TRACE is refused by every route anyway. */
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * POSTs that only read: STAC's item search and aggregate (the whole and a collection's) send their
 * query as a body. A foreign page that makes a browser send one changes nothing and cannot read the
 * answer (CORS), so no CSRF token is asked for.
 */
const READ_ONLY_POSTS: ReadonlySet<string> = new Set(['/api/v1/stac/search', '/api/v1/stac/aggregate']);
const READ_ONLY_POST_PATTERN = /^\/api\/v1\/stac\/collections\/[^/]+\/aggregate$/;
const isReadOnly = (req: { method: string; path: string }) => {
  if (READ_METHODS.has(req.method)) return true;
  const path = req.path.replace(/\/+$/, '');
  return req.method === 'POST' && (READ_ONLY_POSTS.has(path) || READ_ONLY_POST_PATTERN.test(path));
};

/**
 * A browser sends the session cookie with any request to the API, including one a foreign page makes it
 * send. So a write authenticated by the cookie alone must carry the session's CSRF token (which only
 * pages that may read the API can know) and, when the browser says where it comes from, an origin we
 * trust. Sign-in and sign-up check the origin too, so no page can sign a visitor into its own account.
 * Bearer credentials are never sent by a browser on its own, so they need neither.
 */
export function csrfProtection(config: OriginSettings): RequestHandler {
  return (req, _res, next) => {
    if (isReadOnly(req)) {
      next();
      return;
    }
    const cookieWrite = callerOf(req).credential === 'session';
    if (!cookieWrite && !startsSession(req)) {
      next();
      return;
    }
    const origin = req.header('origin');
    if (origin !== undefined && !isTrustedOrigin(req, config, origin)) {
      throw new HttpProblem(403, `requests from origin ${origin} are not accepted`, 'CSRF_ORIGIN_REFUSED');
    }
    if (cookieWrite) {
      const sent = req.header(CSRF_HEADER);
      const expected = sessionOf(req)?.csrfToken;
      if (sent === undefined || expected === undefined || !constantTimeEqual(sent, expected)) {
        throw new HttpProblem(
          403,
          'a write signed in with the session cookie needs the X-CSRF-Token header (from get-session or sign-in)',
          'CSRF_TOKEN_INVALID',
        );
      }
    }
    next();
  };
}
