import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleCommandAt } from './support/command-answer.js';
import { callAt, type JsonResponse } from './support/http.js';
import { startOtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { pipelineKeyAt } from './support/pipeline-key.js';
import { startStack, type Stack } from './support/stack.js';
import { putPart, type Descriptor } from './support/uploads.js';

/**
 * Tracing as deployed (docs/operations.md, "Traces"): the three apps as processes, configured by the
 * standard variables alone, export OTLP (HTTP, JSON) to a collector this test plays. What one request
 * causes in the other processes must arrive there as one trace, each part under its own service name.
 */

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let stack: Stack;
let headers: Record<string, string>;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  stack = await startStack({
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    // Spans are sent in batches; a short delay keeps the test from waiting on the default 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '200',
  });
  headers = await pipelineKeyAt(stack.baseUrl);
});

afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

function post<T>(path: string, body: unknown): Promise<JsonResponse<T>> {
  return callAt<T>(stack.baseUrl, 'POST', path, { headers, body });
}

/** The spans received once `found` finds what it looks for in them (exports arrive in batches). */
async function received<T>(
  what: string,
  found: (spans: readonly ReceivedSpan[]) => T | undefined,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const result = found(receiver.spans);
    if (result !== undefined) return result;
    if (Date.now() > deadline) {
      throw new Error(
        `${what} never arrived; received: ${receiver.spans.map((span) => span.name).join(', ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function child(spans: readonly ReceivedSpan[], parent: ReceivedSpan, name: string): ReceivedSpan | undefined {
  return spans.find((span) => span.parentSpanId === parent.spanId && span.name === name);
}

describe('traces exported by the three processes', () => {
  it('carry an upload completion from the API through the worker and the projector in one trace', async () => {
    const collection = await post<{ portalItemId: string }>('/api/v1/portal/collections/create', {
      title: 'Traced',
      description: 'Exported traces',
      links: [],
    });
    await settleCommandAt(stack.baseUrl, collection, 201, 'create collection');
    const file = Buffer.from('exported '.repeat(64));
    const item = await post<Descriptor>('/api/v1/portal/items/create', {
      title: 'Scene',
      parentId: collection.body.portalItemId,
      links: [],
      size: file.length,
    });
    await settleCommandAt(stack.baseUrl, item, 201, 'create item');
    const etag = await putPart(item.body.partUrls[0]?.url ?? '', file);
    const completed = await post(`/api/v1/portal/items/${item.body.portalItemId}/upload/complete`, {
      parts: [{ partNumber: 1, etag }],
    });
    expect(completed.status).toBe(202);

    const route = 'POST /api/v1/portal/items/:id/upload/complete';
    const request = await received('the request span', (spans) => spans.find((span) => span.name === route));
    const { job, workerAppend, batch } = await received('the worker job and its projection', (spans) => {
      const trace = spans.filter((span) => span.traceId === request.traceId);
      const send = child(trace, request, 'send complete-upload');
      const foundJob = send && child(trace, send, 'process complete-upload');
      const foundAppend = foundJob && child(trace, foundJob, 'eventstore.append');
      const foundBatch = foundAppend && child(trace, foundAppend, 'projector.batch');
      return foundJob && foundAppend && foundBatch
        ? { job: foundJob, workerAppend: foundAppend, batch: foundBatch }
        : undefined;
    });

    // Each process under its default service name, each span from the part of the code that made it.
    expect(request).toMatchObject({ service: 'portal-api', scope: '@portal/api', parentSpanId: '' });
    expect(request.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/api/v1/portal/items/:id/upload/complete',
      'http.response.status_code': 202,
    });
    expect(job).toMatchObject({ service: 'portal-upload-worker', scope: '@portal/upload-worker' });
    expect(job.attributes['portal.upload.outcome']).toBe('ready');
    expect(workerAppend).toMatchObject({ service: 'portal-upload-worker', scope: '@portal/eventstore' });
    expect(batch).toMatchObject({ service: 'portal-projector', scope: '@portal/projector' });
    expect(batch.attributes['portal.projector.outcome']).toBe('applied');
  });
});
