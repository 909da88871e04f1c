import { createServer } from 'node:http';
import express from 'express';
import { createLogger, createMetricsRegistry, type Registry } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import { useInProcessServers } from '../../test/support/in-process-server.js';
import { errorMiddleware } from './error-middleware.js';
import { HttpProblem } from './problem.js';
import { requestLogging } from './request-logging.js';
import { methodLabel, requestMetrics } from './request-metrics.js';
import { apiRouter, route } from './routes.js';

const servers = useInProcessServers();

/** Routers built as the API builds them: one at the root, one mounted under a path, the 404 fallback. */
async function appWithMetrics(registry: Registry): Promise<string> {
  const app = express();
  app.use(requestMetrics(registry));
  app.use(requestLogging(createLogger({ name: 'test', level: 'silent' })));
  const items = apiRouter();
  route(items, '/api/v1/portal/items/:id', {
    get: (req, res) => {
      res.json({ id: req.params['id'] });
    },
  });
  const nodes = apiRouter();
  route(nodes, '/nodes/:nodeId/children', {
    get: () => {
      // An error leaves the mounted router: express restores its mount path before the error handler runs.
      throw new HttpProblem(503, 'unavailable', 'UNAVAILABLE');
    },
  });
  const browser = apiRouter();
  browser.use('/api/v1/browser', nodes);
  app.use(items);
  app.use(browser);
  app.use((req, _res, next) => {
    next(new HttpProblem(404, `no route for ${req.method} ${req.path}`, 'ROUTE_NOT_FOUND'));
  });
  app.use(errorMiddleware);
  return servers.start(createServer(app));
}

interface Observed {
  readonly labels: Record<string, string | number>;
  readonly value: number;
}

async function countsOf(registry: Registry): Promise<Observed[]> {
  const metric = await registry.getSingleMetric('portal_http_request_duration_seconds')?.get();
  return (metric?.values ?? [])
    .filter(
      (value) =>
        (value as { metricName?: string }).metricName === 'portal_http_request_duration_seconds_count',
    )
    .map(({ labels, value }) => ({ labels: labels as Record<string, string | number>, value }));
}

/** Waits for the answer's `finish`, which the client may see before the server's event fires. */
async function settled(registry: Registry, total: number): Promise<Observed[]> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const counts = await countsOf(registry);
    if (counts.reduce((sum, count) => sum + count.value, 0) >= total) return counts;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return countsOf(registry);
}

describe('request metrics', () => {
  it('label a URL with an id by its route template, also under a mounted router that fails', async () => {
    const registry = createMetricsRegistry();
    const base = await appWithMetrics(registry);
    for (const id of ['a1', 'b2', 'c3']) await fetch(`${base}/api/v1/portal/items/${id}`);
    expect((await fetch(`${base}/api/v1/browser/nodes/n-42/children`)).status).toBe(503);

    const counts = await settled(registry, 4);
    expect(counts).toEqual(
      expect.arrayContaining([
        { labels: { method: 'GET', route: '/api/v1/portal/items/:id', status_code: '200' }, value: 3 },
        {
          labels: { method: 'GET', route: '/api/v1/browser/nodes/:nodeId/children', status_code: '503' },
          value: 1,
        },
      ]),
    );
    expect(counts).toHaveLength(2);
  });

  it('label requests no route answered as unmatched, never by their path', async () => {
    const registry = createMetricsRegistry();
    const base = await appWithMetrics(registry);
    await fetch(`${base}/api/v1/no-such/7f9c`);
    await fetch(`${base}/api/v1/other/8e1d`, { method: 'DELETE' });

    const counts = await settled(registry, 2);
    expect(counts).toEqual([
      { labels: { method: 'GET', route: 'unmatched', status_code: '404' }, value: 1 },
      { labels: { method: 'DELETE', route: 'unmatched', status_code: '404' }, value: 1 },
    ]);
    const text = await registry.metrics();
    expect(text).not.toMatch(/7f9c|8e1d/);
  });

  it('label a method the API does not use as OTHER', () => {
    expect(methodLabel('GET')).toBe('GET');
    expect(methodLabel('PROPFIND')).toBe('OTHER');
  });
});
