import type { Request, RequestHandler } from 'express';
import type { Config, Logger, Registry } from '@portal/platform';

/**
 * Headers a relaying proxy adds. A proxy on the same machine connects from loopback, so a request
 * carrying one of these came from somewhere else, whatever its peer address.
 */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'via',
];

/** `127.0.0.0/8` or `::1`, also as an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  if (address === '::1') return true;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Whether the API port serves `GET /metrics` at all: only outside production and only where no proxy is
 * declared (`TRUST_PROXY` false). Behind a proxy the proxy itself is the loopback peer, and production
 * scrapes `METRICS_PORT` (docs/operations.md, "Metrics on the API port").
 */
export function localMetricsEnabled(config: Pick<Config, 'NODE_ENV' | 'TRUST_PROXY'>): boolean {
  return config.NODE_ENV !== 'production' && config.TRUST_PROXY === false;
}

/** A request from this machine that no proxy relayed: the TCP peer, never `req.ip`, which headers set. */
export function isLocalDirectRequest(req: Pick<Request, 'socket' | 'headers'>): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  return FORWARDING_HEADERS.every((name) => req.headers[name] === undefined);
}

/**
 * `GET /metrics` on the API port for a newcomer's `curl localhost:3000/metrics`: the same registry as
 * the metrics listener, answered only to a local, unrelayed request (403 otherwise). Mounted first, so
 * a scrape is neither logged nor counted in the request histograms.
 */
export function localMetrics(registry: Registry, logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (req.path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      next();
      return;
    }
    if (!isLocalDirectRequest(req)) {
      res.status(403).json({
        message:
          'GET /metrics on the API port answers only requests from this machine that no proxy relayed; ' +
          'Prometheus scrapes METRICS_PORT (docs/operations.md)',
        code: 'FORBIDDEN',
      });
      return;
    }
    registry.metrics().then(
      (text) => {
        res.status(200).type(registry.contentType).send(text);
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'metrics collection failed');
        res.status(500).json({ message: 'metrics collection failed', code: 'INTERNAL' });
      },
    );
  };
}
