import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { streamIdOf } from '@portal/domain';
import { PostgresEventStore } from '@portal/eventstore';
import { createLogger, SpanKind, startTracing, type Logger, type Tracing } from '@portal/platform';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleCommandAt } from '../../../test/support/command-answer.js';
import { callAt, type JsonResponse } from '../../../test/support/http.js';
import { pipelineKeyAt } from '../../../test/support/pipeline-key.js';
import { putPart } from '../../../test/support/uploads.js';
import { useInProcessService } from './support/in-process-service.js';
import { useReadDatabase } from './support/read-database.js';

/**
 * Tracing across the three apps (docs/operations.md, "Traces"): the API, the projector and the upload
 * worker run in this process with the OpenTelemetry SDK started as `main.ts` starts it, but exporting
 * into memory, on real PostgreSQL, Redis and S3. One upload completion must make one trace, from the
 * HTTP request through its append, the job the worker runs for it and the projector's batches of both
 * their events.
 */

const exporter = new InMemorySpanExporter();
// Exports wait for the resource's detected attributes: the test flushes before it looks.
const processor = new SimpleSpanProcessor({ exporter });
let tracing: Tracing | undefined;

/** Lines each app's pino logger wrote, parsed. */
const apiLines: Record<string, unknown>[] = [];
const workerLines: Record<string, unknown>[] = [];
function collectingLogger(name: string, into: Record<string, unknown>[]): Logger {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') into.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return createLogger({ name, level: 'info', destination });
}

beforeAll(async () => {
  tracing = await startTracing({
    serviceName: 'portal-test',
    logger: createLogger({ name: 'tracing', level: 'silent' }),
    env: {},
    spanProcessors: [processor],
  });
});

const database = useReadDatabase('traces');
// A generous projection wait: the request's span must show its wait end in `projected`, not time out.
const service = useInProcessService(
  database,
  { api: collectingLogger('api', apiLines), worker: collectingLogger('upload-worker', workerLines) },
  { PROJECTION_WAIT_MS: '30000' },
);

afterAll(async () => {
  await tracing?.shutdown();
});

/** A POST to the in-process API with a credential, through the e2e tests' client. */
function post<T>(path: string, headers: Record<string, string>, body: unknown): Promise<JsonResponse<T>> {
  return callAt<T>(service.baseUrl, 'POST', path, { headers, body });
}

async function itemStatus(id: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${service.baseUrl}/api/v1/portal/items/${id}`, { headers });
  return ((await response.json()) as { status: string }).status;
}

/** The finished spans once `done` holds of them; the last ones end just after the work they time. */
async function spansWhen(done: (spans: readonly ReadableSpan[]) => boolean): Promise<ReadableSpan[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    await processor.forceFlush();
    const spans = exporter.getFinishedSpans();
    if (done(spans)) return spans;
    if (Date.now() > deadline) throw new Error(`expected spans never ended: ${names(spans).join(', ')}`);
    await sleep(50);
  }
}

function names(spans: readonly ReadableSpan[]): string[] {
  return spans.map((span) => span.name);
}

/** The span and its parents up to the root, by name, within the spans recorded. */
function ancestry(span: ReadableSpan, spans: readonly ReadableSpan[]): string[] {
  const byId = new Map(spans.map((each) => [each.spanContext().spanId, each]));
  const chain: string[] = [];
  for (let at: ReadableSpan | undefined = span; at;) {
    chain.push(at.name);
    const parentId: string | undefined = at.parentSpanContext?.spanId;
    at = parentId === undefined ? undefined : byId.get(parentId);
  }
  return chain;
}

function childOf(parent: ReadableSpan, spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const child = spans.find(
    (span) => span.name === name && span.parentSpanContext?.spanId === parent.spanContext().spanId,
  );
  if (!child) throw new Error(`no ${name} span under ${parent.name}; spans: ${names(spans).join(', ')}`);
  return child;
}

function traceParentOf(span: ReadableSpan): string {
  return `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;
}

const COMPLETE_ROUTE = '/api/v1/portal/items/:id/upload/complete';

describe('one trace across the API, the upload worker and the projector', () => {
  it('follows an upload completion from its request to the batches that project its outcome', async () => {
    const key = await pipelineKeyAt(service.baseUrl);
    const collection = await post<{ portalItemId: string }>('/api/v1/portal/collections/create', key, {
      title: 'Traced',
      description: 'Uploads followed by their traces',
      links: [],
    });
    await settleCommandAt(service.baseUrl, collection, 201, 'create collection');
    const file = Buffer.from('traced bytes '.repeat(100));
    const item = await post<{ portalItemId: string; partUrls: { partNumber: number; url: string }[] }>(
      '/api/v1/portal/items/create',
      key,
      { title: 'Scene', parentId: collection.body.portalItemId, links: [], size: file.length },
    );
    await settleCommandAt(service.baseUrl, item, 201, 'create item');
    const itemId = item.body.portalItemId;
    const etag = await putPart(item.body.partUrls[0]?.url ?? '', file);

    const completed = await post(`/api/v1/portal/items/${itemId}/upload/complete`, key, {
      parts: [{ partNumber: 1, etag }],
    });
    expect(completed.status).toBe(202);
    const deadline = Date.now() + 30_000;
    while ((await itemStatus(itemId, key)) !== 'ready') {
      if (Date.now() > deadline) throw new Error('the upload never became ready');
      await sleep(100);
    }

    const requestOf = (spans: readonly ReadableSpan[]) =>
      spans.find((span) => span.name === `POST ${COMPLETE_ROUTE}`);
    const spans = await spansWhen((recorded) => {
      const request = requestOf(recorded);
      const inTrace = recorded.filter(
        (span) => span.spanContext().traceId === request?.spanContext().traceId,
      );
      return inTrace.filter((span) => span.name === 'projector.batch').length >= 2;
    });
    const request = requestOf(spans);
    if (!request) throw new Error('no request span');
    const traceId = request.spanContext().traceId;
    const trace = spans.filter((span) => span.spanContext().traceId === traceId);

    // The request: a server span named after its route template, with attributes of few values.
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.parentSpanContext).toBeUndefined();
    expect(request.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': COMPLETE_ROUTE,
      'http.response.status_code': 202,
    });
    expect(trace.filter((span) => span.kind === SpanKind.SERVER)).toEqual([request]);

    // Its children: the command's validation, the append, the job it enqueued, the wait for its projection.
    const validate = childOf(request, trace, 'command.validate');
    expect(validate.attributes).toMatchObject({
      'portal.command.type': 'RequestUploadCompletion',
      'portal.stream.category': 'item',
      'portal.command.events': 1,
    });
    const append = childOf(request, trace, 'eventstore.append');
    expect(append.instrumentationScope.name).toBe('@portal/eventstore');
    expect(append.attributes).toMatchObject({
      'portal.eventstore.outcome': 'ok',
      'portal.eventstore.events': 1,
    });
    const send = childOf(request, trace, 'send complete-upload');
    expect(send.kind).toBe(SpanKind.PRODUCER);
    const wait = childOf(request, trace, 'projection.wait');
    expect(wait.attributes['portal.projection.outcome']).toBe('projected');

    // The event the request appended names the append's span, for whoever handles it later.
    const events = new PostgresEventStore(database.pool);
    const recorded = await events.readStream(streamIdOf('item', itemId));
    const requested = recorded.find((event) => event.type === 'UploadCompletionRequested');
    expect(requested?.metadata.traceParent).toBe(traceParentOf(append));

    // The worker's job continues the request's trace, and so do the events it appends.
    const job = childOf(send, trace, 'process complete-upload');
    expect(job.kind).toBe(SpanKind.CONSUMER);
    expect(job.instrumentationScope.name).toBe('@portal/upload-worker');
    expect(job.attributes).toMatchObject({ 'portal.upload.outcome': 'ready', 'portal.job.attempt': 1 });
    const workerAppend = childOf(job, trace, 'eventstore.append');
    const completion = recorded.find((event) => event.type === 'UploadCompleted');
    expect(completion?.metadata.traceParent).toBe(traceParentOf(workerAppend));

    // The projector's batches: one projects the request's event, one the worker's, both in this trace.
    const requestBatch = childOf(append, trace, 'projector.batch');
    const workerBatch = childOf(workerAppend, trace, 'projector.batch');
    for (const batch of [requestBatch, workerBatch]) {
      expect(batch.instrumentationScope.name).toBe('@portal/projector');
      expect(batch.attributes).toMatchObject({
        'portal.projector.outcome': 'applied',
        'portal.projection': 'portal',
      });
    }
    expect(ancestry(workerBatch, trace)).toEqual([
      'projector.batch',
      'eventstore.append',
      'process complete-upload',
      'send complete-upload',
      `POST ${COMPLETE_ROUTE}`,
    ]);
    expect(ancestry(requestBatch, trace)).toEqual([
      'projector.batch',
      'eventstore.append',
      `POST ${COMPLETE_ROUTE}`,
    ]);

    // Logs name the trace: the request's one line, and the worker's line about the job.
    const requestLines = apiLines.filter((line) =>
      (line.req as { url?: string } | undefined)?.url?.endsWith('/upload/complete'),
    );
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({ trace_id: traceId, span_id: request.spanContext().spanId });
    const workerLine = workerLines.find((line) => line.msg === 'upload completed');
    expect(workerLine).toMatchObject({ trace_id: traceId, span_id: job.spanContext().spanId });
  });
});
