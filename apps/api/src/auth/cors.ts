import type { RequestHandler } from 'express';
import { HttpProblem } from '../http/problem.js';
import { isCorsOrigin, type OriginSettings } from './origins.js';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-CSRF-Token',
  'If-Match',
  'Idempotency-Key',
  'Prefer',
  'X-Min-Position',
  'X-Request-Id',
  'X-Correlation-Id',
  'Last-Event-ID',
].join(', ');
const EXPOSED_HEADERS = [
  'ETag',
  'X-Event-Position',
  'X-Request-Id',
  'Retry-After',
  'Location',
  'Preference-Applied',
  'Idempotent-Replayed',
  'Allow',
].join(', ');
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * CORS for the browser apps in `CORS_ORIGINS`, with credentials (the session cookie). Any other origin
 * gets no CORS headers, so its pages cannot read answers; its preflights are refused outright.
 */
export function cors(config: OriginSettings): RequestHandler {
  return (req, res, next) => {
    const origin = req.header('origin');
    if (origin === undefined) {
      next();
      return;
    }
    res.vary('Origin');
    const allowed = isCorsOrigin(config, origin);
    if (allowed) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    const preflight = req.method === 'OPTIONS' && req.header('access-control-request-method') !== undefined;
    if (!preflight) {
      next();
      return;
    }
    if (!allowed) throw new HttpProblem(403, `origin ${origin} is not allowed`, 'CORS_ORIGIN_REFUSED');
    res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
    res.vary('Access-Control-Request-Headers');
    res.status(204).end();
  };
}
