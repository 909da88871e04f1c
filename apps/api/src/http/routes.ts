import { Router, type RequestHandler } from 'express';
import { HttpProblem } from './problem.js';
import { rememberRouteTemplate } from './request-metrics.js';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * Every router of the API. Paths are case-sensitive, as URLs are: `/API/v1/…` is not `/api/v1/…` and
 * answers 404, so one resource has one spelling for the proxies, caches and access rules in front of
 * the API (a rule on `/api/auth/` must not be walked around with `/Api/auth/`). A trailing slash is
 * still optional (`/create/` is `/create`), as express has it.
 */
export function apiRouter(): Router {
  return Router({ caseSensitive: true });
}

/**
 * Registers handlers for one path and answers every other method with 405 and `Allow`.
 * HEAD follows GET, as express does.
 */
export function route(
  router: Router,
  path: string,
  handlers: Partial<Record<Method, RequestHandler | RequestHandler[]>>,
): void {
  const methods = Object.keys(handlers) as Method[];
  const allow = methods.map((method) => method.toUpperCase());
  if (allow.includes('GET')) allow.push('HEAD');
  const chain = router.route(path);
  // First, so the request's metrics name this route's template, whatever the handlers do next.
  chain.all(rememberRouteTemplate);
  for (const method of methods) {
    const handler = handlers[method];
    if (handler) chain[method](handler);
  }
  chain.all((_req, _res, next) => {
    next(
      new HttpProblem(405, `method not allowed; use ${allow.join(', ')}`, 'METHOD_NOT_ALLOWED', undefined, {
        Allow: allow.join(', '),
      }),
    );
  });
}
