import { createServer } from 'node:http';
import express from 'express';
import { createLogger, SpanKind, SpanStatusCode, startTracing, type Tracing } from '@portal/platform';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useInProcessServers } from '../../test/support/in-process-server.js';
import { errorMiddleware } from './error-middleware.js';
import { HttpProblem } from './problem.js';
import { requestLogging } from './request-logging.js';
import { requestTracing } from './request-tracing.js';
import { apiRouter, route } from './routes.js';

const servers = useInProcessServers();
const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor({ exporter });
let tracing: Tracing | undefined;

beforeAll(async () => {
  tracing = await startTracing({
    serviceName: 'test',
    logger: createLogger({ name: 'test', level: 'silent' }),
    env: {},
    spanProcessors: [processor],
  });
});

afterAll(async () => {
  await tracing?.shutdown();
});

/** Routers as the API builds them: one at the root, one mounted under a path that fails, the 404. */
async function tracedApp(): Promise<string> {
  const app = express();
  app.use(requestTracing());
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

/**
 * The server spans once at least `count` have been exported: a span ends on the answer's `close`, which
 * may come after the client has its answer, and is exported once the resource is complete.
 */
async function serverSpans(count: number): Promise<ReadableSpan[]> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    await processor.forceFlush();
    const spans = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER);
    if (spans.length >= count) return spans;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${String(count)} server spans were exported`);
}

describe('request spans', () => {
  it('are named by the route template that answered, with only method, route and status', async () => {
    const base = await tracedApp();
    expect((await fetch(`${base}/api/v1/portal/items/0b6f3c0e-1d7e-4c1e-9a53-2f8d1b7c9e11`)).status).toBe(
      200,
    );
    expect((await fetch(`${base}/api/v1/browser/nodes/abc/children`)).status).toBe(503);
    expect((await fetch(`${base}/no/such/path/42`, { method: 'DELETE' })).status).toBe(404);

    const byName = new Map((await serverSpans(3)).map((span) => [span.name, span]));
    expect([...byName.keys()].sort()).toEqual([
      'DELETE',
      'GET /api/v1/browser/nodes/:nodeId/children',
      'GET /api/v1/portal/items/:id',
    ]);
    const read = byName.get('GET /api/v1/portal/items/:id');
    expect(read?.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/api/v1/portal/items/:id',
      'http.response.status_code': 200,
    });
    expect(read?.status.code).toBe(SpanStatusCode.UNSET);
    // A failure under a mounted router keeps its full template, and a 5xx is the span's error.
    const failed = byName.get('GET /api/v1/browser/nodes/:nodeId/children');
    expect(failed?.attributes).toMatchObject({ 'http.response.status_code': 503, 'error.type': '503' });
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
    // No route: the method alone, never the path; a 404 is the client's, not an error.
    const unmatched = byName.get('DELETE');
    expect(unmatched?.attributes).toEqual({
      'http.request.method': 'DELETE',
      'http.response.status_code': 404,
    });
    expect(unmatched?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("continue a caller's trace named in traceparent", async () => {
    const base = await tracedApp();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await fetch(`${base}/api/v1/portal/items/x`, {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    // The spans of the test before are there too: this request's is the fourth.
    const spans = await serverSpans(4);
    const span = spans.find((each) => each.parentSpanContext?.spanId === '00f067aa0ba902b7');
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.isRemote).toBe(true);
  });
});
