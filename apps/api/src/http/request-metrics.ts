import type { RequestHandler, Response } from 'express';
import { Histogram, type Registry } from '@portal/platform';

/** The route label of a request no route answered: no such route, or refused before routing (401, 413…). */
export const UNMATCHED_ROUTE = 'unmatched';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const TEMPLATE_KEY = 'routeTemplate';

/**
 * The first handler of every route (`route()` in routes.ts): notes the route's template with the mount
 * path of its router, while both are known. An error leaving a mounted router restores its mount path,
 * so reading them only once the answer is sent would lose it.
 */
export const rememberRouteTemplate: RequestHandler = (req, res, next) => {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') res.locals[TEMPLATE_KEY] = `${req.baseUrl}${path}`;
  next();
};

/**
 * The route template that answered (`/api/v1/items/:id`), never the URL: ids in paths would make a
 * label value per object. A request that met no route has none.
 */
export function routeLabel(res: Pick<Response, 'locals'>): string {
  const template: unknown = res.locals[TEMPLATE_KEY];
  return typeof template === 'string' ? template : UNMATCHED_ROUTE;
}

/** A fixed set: any other method (node accepts many) would otherwise grow the label's values. */
export function methodLabel(method: string): string {
  return KNOWN_METHODS.has(method) ? method : 'OTHER';
}

/**
 * Times every request from its arrival to the last byte of the answer handed to the socket, by method,
 * route template and status code. A request whose client went away before the answer is not counted.
 * The stream of `GET /api/v1/events` counts once, when it ends: its duration is the connection's life.
 */
export function requestMetrics(registry: Registry): RequestHandler {
  const histogram = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'HTTP requests of the API by method, route template and status code, and the time to answer them.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // One child per label combination, found by one string key: no label object is built per request
  // (prom-client still checks the child's labels in each observation, about a microsecond).
  const children = new Map<string, Histogram.Internal<'method' | 'route' | 'status_code'>>();
  const childOf = (
    method: string,
    route: string,
    statusCode: number,
  ): Histogram.Internal<'method' | 'route' | 'status_code'> => {
    const key = `${method} ${statusCode} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = histogram.labels(method, route, String(statusCode));
      children.set(key, child);
    }
    return child;
  };
  return (req, res, next) => {
    const startedAt = performance.now();
    res.once('finish', () => {
      const seconds = (performance.now() - startedAt) / 1000;
      childOf(methodLabel(req.method), routeLabel(res), res.statusCode).observe(seconds);
    });
    next();
  };
}
