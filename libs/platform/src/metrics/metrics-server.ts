import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from '../logger.js';

export interface MetricsServer {
  /** The port it listens on (the one asked for, or the one the system chose for 0). */
  readonly port: number;
  close(): Promise<void>;
}

export interface MetricsServerOptions {
  readonly registry: Registry;
  readonly host: string;
  readonly port: number;
  readonly logger: Logger;
}

/**
 * A listener of its own for `GET /metrics`, apart from any API port: it answers nothing else, sits
 * behind no authentication, and is meant for a private address only (docs/operations.md).
 * A port that cannot be bound is logged, not fatal: the process keeps doing its work unobserved
 * (Prometheus sees the target down) rather than stopping the service over its metrics. Resolves with
 * `null` then.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer | null> {
  const { registry, logger } = options;
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if ((req.url ?? '/').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('only /metrics here\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'metrics collection failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  // A scrape is one short request: never let a slow client hold a socket for long.
  server.requestTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  const bound = await listen(server, options.host, options.port);
  if (bound instanceof Error) {
    logger.error(
      { err: bound, host: options.host, metricsPort: options.port },
      'metrics port unavailable; running without metrics',
    );
    return null;
  }
  const { port } = server.address() as AddressInfo;
  logger.info({ host: options.host, metricsPort: port }, 'metrics listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, host: string, port: number): Promise<Error | undefined> {
  return new Promise((resolve) => {
    const onError = (error: Error): void => {
      resolve(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(undefined);
    });
  });
}
