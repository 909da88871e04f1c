import type { Request } from 'express';
import { HttpProblem } from '../http/problem.js';
import type { Refusal } from './attempt-counter.js';

/**
 * The client's address as express sees it: behind a proxy, what `TRUST_PROXY` makes of X-Forwarded-For.
 * `TRUST_PROXY=true` takes its left-most entry, which the client writes itself; per-address limits need
 * a hop count or the proxies' subnets (docs/identity.md).
 */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/**
 * Lets the request go on when `attempt` counted it within its limit; otherwise 429 with Retry-After.
 * Without Redis there is no limit, so the request is refused (503) rather than let through unlimited.
 */
export async function passRateLimit(
  req: Request,
  limiterName: string,
  attempt: () => Promise<Refusal | null>,
  tooMany: (retryAfterSeconds: number) => string,
): Promise<void> {
  const refusal = await attempt().catch((error: unknown) => {
    req.log.warn({ err: error }, `${limiterName} rate limiter unavailable`);
    throw new HttpProblem(
      503,
      `${limiterName} is unavailable for a moment; retry shortly`,
      'UNAVAILABLE',
      undefined,
      {
        'Retry-After': '5',
      },
    );
  });
  if (refusal) {
    throw new HttpProblem(429, tooMany(refusal.retryAfterSeconds), 'TOO_MANY_ATTEMPTS', undefined, {
      'Retry-After': String(refusal.retryAfterSeconds),
    });
  }
}
