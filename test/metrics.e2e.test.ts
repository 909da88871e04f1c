import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineKeyAt } from './support/auth.js';
import { settleCommandAt } from './support/command-answer.js';
import { callAt } from './support/http.js';
import { allQueries } from './support/monitoring-files.js';
import { namesIn, scrape, valueOf, type MetricFamily } from './support/prometheus-text.js';
import { parsePromQl } from './support/promql.js';
import { startStack, type AppName, type Stack } from './support/stack.js';
import { fileOf, putPart, type Descriptor } from './support/uploads.js';

type Scrapes = Record<AppName, Map<string, MetricFamily>>;

/** Series Prometheus makes itself for every target; no process exposes them. */
const SERVER_SIDE_NAMES = new Set(['up']);

async function scrapeAll(stack: Stack): Promise<Scrapes> {
  const [api, projector, uploadWorker] = await Promise.all([
    scrape(stack.metricsUrls.api),
    scrape(stack.metricsUrls.projector),
    scrape(stack.metricsUrls.uploadWorker),
  ]);
  return { api, projector, uploadWorker };
}

/** Scrapes until `ready` holds (the worker and the projector report on their own time). */
async function scrapeUntil(stack: Stack, ready: (scrapes: Scrapes) => boolean): Promise<Scrapes> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const scrapes = await scrapeAll(stack);
    if (ready(scrapes) || Date.now() > deadline) return scrapes;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const requests = (scrapes: Scrapes, labels: Record<string, string>): number =>
  valueOf(scrapes.api, 'portal_http_request_duration_seconds_count', labels);

describe('metrics of every process after a create, an upload and their projection', () => {
  let stack: Stack;
  let before: Scrapes;
  let after: Scrapes;
  let itemId = '';
  let unknownId = '';

  beforeAll(async () => {
    stack = await startStack({ UPLOAD_SWEEP_INTERVAL_MS: '500' });
    const headers = await pipelineKeyAt(stack.baseUrl);
    const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
      callAt<T>(stack.baseUrl, method, path, { headers, ...(body === undefined ? {} : { body }) });
    before = await scrapeAll(stack);

    const collection = await call<{ portalItemId: string }>('POST', '/api/v1/portal/collections/create', {
      title: 'Observed',
      description: 'Metrics under test',
      links: [],
    });
    await settleCommandAt(stack.baseUrl, collection, 201, 'create collection');
    const file = fileOf(1024);
    const created = await call<Descriptor>('POST', '/api/v1/portal/items/create', {
      title: 'Observed upload',
      parentId: collection.body.portalItemId,
      links: [],
      size: file.length,
    });
    await settleCommandAt(stack.baseUrl, created, 201, 'create item');
    itemId = created.body.portalItemId;
    const [part] = created.body.partUrls;
    const etag = await putPart(part?.url ?? '', file);
    const completed = await call('POST', `/api/v1/portal/items/${itemId}/upload/complete`, {
      parts: [{ partNumber: part?.partNumber ?? 1, etag }],
    });
    expect(completed.status).toBe(202);
    const deadline = Date.now() + 30_000;
    let status = '';
    while (status !== 'ready' && Date.now() < deadline) {
      status = (await call<{ status: string }>('GET', `/api/v1/portal/items/${itemId}`)).body.status;
      if (status !== 'ready') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe('ready');
    unknownId = randomUUID();
    expect((await call('GET', `/api/v1/no-such-resource/${unknownId}`)).status).toBe(404);

    after = await scrapeUntil(
      stack,
      (scrapes) =>
        valueOf(scrapes.uploadWorker, 'portal_upload_completions_total', { outcome: 'ready' }) >= 1 &&
        valueOf(scrapes.projector, 'portal_projector_lag_events') === 0,
    );
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('API: requests by route template and status, appends, projection waits, pools, the process', () => {
    const create = { method: 'POST', route: '/api/v1/portal/items/create', status_code: '201' };
    expect(requests(after, create)).toBeGreaterThan(requests(before, create));
    // The item's own URL counts under its template, the unknown URL as unmatched: never by raw path.
    expect(
      requests(after, { method: 'GET', route: '/api/v1/portal/items/:id', status_code: '200' }),
    ).toBeGreaterThan(0);
    expect(requests(after, { route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
    const routes = new Set(
      [...after.api.values()].flatMap((family) =>
        family.samples.map((sample) => sample.labels['route'] ?? ''),
      ),
    );
    for (const route of routes) {
      expect(route).not.toContain(itemId);
      expect(route).not.toContain(unknownId);
    }

    const appended = (scrapes: Scrapes) =>
      valueOf(scrapes.api, 'portal_eventstore_append_duration_seconds_count', { outcome: 'ok' });
    expect(appended(after)).toBeGreaterThan(appended(before));
    const waits = (scrapes: Scrapes) => valueOf(scrapes.api, 'portal_projection_waits_total');
    expect(waits(after)).toBeGreaterThan(waits(before));
    expect(
      valueOf(after.api, 'portal_pg_pool_connections', { pool: 'main', state: 'total' }),
    ).toBeGreaterThan(0);
    const queries = (scrapes: Scrapes) => valueOf(scrapes.api, 'portal_pg_queries_total', { pool: 'main' });
    expect(queries(after)).toBeGreaterThan(queries(before));
    expect(after.api.get('portal_sse_clients')?.type).toBe('gauge');
    expect(valueOf(after.api, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('projector: leads, applied the batches, caught up with the head, no dead letter', () => {
    const applied = (scrapes: Scrapes) => valueOf(scrapes.projector, 'portal_projector_events_applied_total');
    expect(applied(after)).toBeGreaterThan(applied(before));
    const batches = (scrapes: Scrapes) =>
      valueOf(scrapes.projector, 'portal_projector_batch_duration_seconds_count');
    expect(batches(after)).toBeGreaterThan(batches(before));
    expect(valueOf(after.projector, 'portal_projector_batch_events_sum')).toBeGreaterThanOrEqual(
      applied(after),
    );
    expect(valueOf(after.projector, 'portal_projector_leader')).toBe(1);
    const checkpoint = valueOf(after.projector, 'portal_projector_checkpoint_position');
    expect(checkpoint).toBeGreaterThan(valueOf(before.projector, 'portal_projector_checkpoint_position'));
    expect(checkpoint).toBe(valueOf(after.projector, 'portal_eventstore_head_position'));
    expect(valueOf(after.projector, 'portal_projector_lag_seconds')).toBe(0);
    expect(valueOf(after.projector, 'portal_projector_dead_letters')).toBe(0);
    expect(valueOf(after.projector, 'portal_projector_halted')).toBe(0);
  });

  it('upload worker: the completion job, its outcome, its append, the queue and the sweeps', () => {
    expect(valueOf(after.uploadWorker, 'portal_upload_completions_total', { outcome: 'ready' })).toBe(1);
    expect(
      valueOf(after.uploadWorker, 'portal_upload_job_duration_seconds_count', {
        job: 'complete_upload',
        result: 'ok',
      }),
    ).toBe(1);
    expect(
      valueOf(after.uploadWorker, 'portal_eventstore_append_duration_seconds_count', { outcome: 'ok' }),
    ).toBeGreaterThan(valueOf(before.uploadWorker, 'portal_eventstore_append_duration_seconds_count'));
    const states = after.uploadWorker
      .get('portal_upload_queue_jobs')
      ?.samples.map((sample) => sample.labels['state']);
    expect(states).toEqual(expect.arrayContaining(['waiting', 'active', 'delayed', 'failed']));
    expect(
      valueOf(after.uploadWorker, 'portal_upload_job_duration_seconds_count', { job: 'sweep_uploads' }),
    ).toBeGreaterThan(0);
    expect(after.uploadWorker.get('portal_webhook_deliveries_total')?.samples).toHaveLength(5);
  });

  it('the change feed counts its clients and why their streams ended', async () => {
    const headers = await pipelineKeyAt(stack.baseUrl);
    const stream = new AbortController();
    const response = await fetch(`${stack.baseUrl}/api/v1/events`, {
      headers: { ...headers, accept: 'text/event-stream' },
      signal: stream.signal,
    });
    expect(response.status).toBe(200);
    const connected = await scrapeUntil(stack, (scrapes) => valueOf(scrapes.api, 'portal_sse_clients') >= 1);
    expect(valueOf(connected.api, 'portal_sse_clients')).toBe(1);
    stream.abort();
    await response.body?.cancel().catch(() => undefined);
    const gone = await scrapeUntil(stack, (scrapes) => valueOf(scrapes.api, 'portal_sse_clients') === 0);
    expect(valueOf(gone.api, 'portal_sse_clients')).toBe(0);
    expect(valueOf(gone.api, 'portal_sse_disconnects_total', { reason: 'client' })).toBe(1);
  });

  it('the API port has no /metrics where a proxy is trusted: a proxy connects from loopback too', async () => {
    // The stacks declare their tests as a proxy (TRUST_PROXY=loopback); admin-cli.e2e has none.
    const answer = await callAt<{ code: string }>(stack.baseUrl, 'GET', '/metrics');
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('ROUTE_NOT_FOUND');
  });

  it('every metric the dashboards and alert rules query is in some process’s exposition', () => {
    const exposed = new Set([
      ...namesIn(after.api),
      ...namesIn(after.projector),
      ...namesIn(after.uploadWorker),
    ]);
    const missing = allQueries().flatMap(({ panel, expr }) =>
      parsePromQl(expr)
        .metricNames.filter((name) => !exposed.has(name) && !SERVER_SIDE_NAMES.has(name))
        .map((name) => `${panel}: ${name}`),
    );
    expect(missing).toEqual([]);
  });
});
