import type { RequestHandler } from 'express';

/**
 * Hands a request to `router` only when its path is `prefix` or below it, spelled exactly (paths are
 * case-sensitive, routes.ts), and passes every other request on without it: a router placed early for
 * its own requests then costs the rest one string comparison instead of a match against each of its
 * routes. The router sees the request unchanged (its routes keep their full paths, unlike a router
 * mounted with `app.use(prefix, …)`, which would also match the prefix in any case).
 */
export function onlyUnder(prefix: string, router: RequestHandler): RequestHandler {
  const below = `${prefix}/`;
  return (req, res, next) => {
    const path = req.path;
    if (path === prefix || path.startsWith(below)) {
      void router(req, res, next);
      return;
    }
    next();
  };
}
