import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger, Pool } from '@portal/platform';
import { callerOf, type AuthenticatedCaller } from '../auth/caller.js';
import { canonicalJson } from './canonical-json.js';
import { HttpProblem } from './problem.js';

/** How long a key is remembered; a pipeline retrying later than this creates anew. */
export const KEY_TTL_HOURS = 24;
/**
 * A claim whose request never recorded an outcome (the process died mid-request) is taken over after
 * this long, so a crash does not block the key for a day. Longer than any request may take.
 */
export const CLAIM_LEASE_SECONDS = 120;
/** About one claim in this many also deletes expired keys, so the table does not grow without bound. */
const PURGE_EVERY = 200;
const REPLAYED_HEADERS = ['etag', 'x-event-position', 'location'] as const;

interface StoredResponse {
  readonly request_hash: string;
  readonly status: number | null;
  readonly body: unknown;
  readonly headers: Record<string, string> | null;
}

export const idempotencySchemaSql = `
CREATE SCHEMA IF NOT EXISTS api;
CREATE TABLE IF NOT EXISTS api.idempotency_keys (
  scope text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  body jsonb,
  headers jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);
CREATE INDEX IF NOT EXISTS idempotency_keys_created_at ON api.idempotency_keys (created_at);`;

function purgeExpiredKeys(pool: Pool, log: Logger): void {
  pool
    .query(
      `DELETE FROM api.idempotency_keys WHERE created_at < now() - make_interval(hours => ${KEY_TTL_HOURS})`,
    )
    .catch((error: unknown) => {
      log.warn({ err: error }, 'could not purge expired idempotency keys');
    });
}

function capturedHeaders(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/**
 * Whose key, for which operation. Keys are the caller's own: another caller's request with the same key
 * and body runs (and is checked) on its own, and never gets the first caller's response replayed. The
 * operation is the method and the route template that matched, not the path as typed, so `/create` and
 * `/create/` are one operation.
 */
export function idempotencyScope(
  caller: Pick<AuthenticatedCaller, 'userId' | 'orgId'>,
  method: string,
  routeTemplate: string,
): string {
  return `${caller.userId ?? 'anonymous'} ${caller.orgId ?? '-'} ${method} ${routeTemplate}`;
}

function routeTemplateOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') throw new Error('idempotency() must run as a handler of a route');
  return `${req.baseUrl}${path}`;
}

/** The same body with its fields in another order is the same request. */
export function idempotencyRequestHash(body: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(body ?? null))
    .digest('hex');
}

/**
 * `Idempotency-Key` on creates: the first request with a key runs; a retry with the same key and body
 * gets the first response again (status, body, ETag, position); the same key with another body is a 422.
 * A key whose first request is still running answers 409. Only successes are remembered: after a 4xx or
 * 5xx the key is free again, so a pipeline can fix the cause (say, create the parent) and retry.
 */
export function idempotency(pool: Pool): RequestHandler {
  return async (req, res, next) => {
    const key = req.header('idempotency-key');
    if (key === undefined) {
      next();
      return;
    }
    if (key.length < 1 || key.length > 255) {
      throw new HttpProblem(400, 'Idempotency-Key must be 1 to 255 characters', 'INVALID_IDEMPOTENCY_KEY');
    }
    const scope = idempotencyScope(callerOf(req), req.method, routeTemplateOf(req));
    const requestHash = idempotencyRequestHash(req.body);

    const claimed = await pool.query(
      `INSERT INTO api.idempotency_keys (scope, key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT (scope, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = NULL, body = NULL,
         headers = NULL, created_at = now()
         WHERE api.idempotency_keys.created_at < now() - make_interval(hours => ${KEY_TTL_HOURS})
            OR (api.idempotency_keys.status IS NULL
                AND api.idempotency_keys.created_at < now() - make_interval(secs => ${CLAIM_LEASE_SECONDS}))
       RETURNING key`,
      [scope, key, requestHash],
    );
    if (Math.random() < 1 / PURGE_EVERY) purgeExpiredKeys(pool, req.log);
    if (claimed.rowCount === 0) {
      const stored = await pool.query<StoredResponse>(
        'SELECT request_hash, status, body, headers FROM api.idempotency_keys WHERE scope = $1 AND key = $2',
        [scope, key],
      );
      const previous = stored.rows[0];
      if (previous && previous.request_hash !== requestHash) {
        throw new HttpProblem(
          422,
          'Idempotency-Key was already used with a different request body',
          'IDEMPOTENCY_KEY_REUSED',
        );
      }
      if (!previous || previous.status === null) {
        throw new HttpProblem(
          409,
          'a request with this Idempotency-Key is still in progress',
          'IDEMPOTENCY_KEY_IN_PROGRESS',
          undefined,
          {
            'Retry-After': '1',
          },
        );
      }
      for (const [name, value] of Object.entries(previous.headers ?? {})) res.setHeader(name, value);
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(previous.status).json(previous.body);
      return;
    }

    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const remember =
        res.statusCode < 300
          ? pool.query(
              'UPDATE api.idempotency_keys SET status = $3, body = $4, headers = $5 WHERE scope = $1 AND key = $2',
              [
                scope,
                key,
                res.statusCode,
                JSON.stringify(body ?? null),
                JSON.stringify(capturedHeaders(res)),
              ],
            )
          : pool.query('DELETE FROM api.idempotency_keys WHERE scope = $1 AND key = $2', [scope, key]);
      remember.then(
        () => json(body),
        (error: unknown) => {
          // Unrecorded, the key would answer 409 until its lease runs out; free it for a retry instead.
          req.log.error({ err: error }, 'could not record idempotent response');
          pool
            .query('DELETE FROM api.idempotency_keys WHERE scope = $1 AND key = $2', [scope, key])
            .catch(() => undefined);
          json(body);
        },
      );
      return res;
    };
    next();
  };
}
