import { Writable } from 'node:stream';
import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { inSpan, tracerOf } from './spans.js';
import { startTracing, type Tracing } from './start-tracing.js';
import { contextOfTraceParent, currentTraceParent, parseTraceParent } from './trace-parent.js';

const exporter = new InMemorySpanExporter();
// Exports wait for the resource's detected attributes: tests flush before they look.
const processor = new SimpleSpanProcessor({ exporter });
const finishedSpans = async () => {
  await processor.forceFlush();
  return exporter.getFinishedSpans();
};
const lines: Record<string, unknown>[] = [];
const logger = createLogger({
  name: 'test',
  level: 'info',
  destination: new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as never);
      callback();
    },
  }),
});
const tracer = tracerOf('@portal/test');
let tracing: Tracing;

beforeAll(async () => {
  // Tracers taken before the SDK starts (at module load, as the service's are) record once it has.
  tracing = await startTracing({
    serviceName: 'portal-test',
    logger,
    env: {},
    spanProcessors: [processor],
  });
});

afterAll(async () => {
  await tracing.shutdown();
});

describe('tracing with the SDK started', () => {
  it('records spans with the service name, their parents, and failures', async () => {
    exporter.reset();
    await expect(
      inSpan(tracer, 'outer', {}, () =>
        inSpan(tracer, 'inner', { attributes: { 'portal.test': 1 } }, () =>
          Promise.reject(new Error('boom')),
        ),
      ),
    ).rejects.toThrow('boom');
    const [inner, outer] = await finishedSpans();
    expect(tracing.enabled).toBe(true);
    expect(outer?.name).toBe('outer');
    expect(inner?.name).toBe('inner');
    expect(inner?.parentSpanContext?.spanId).toBe(outer?.spanContext().spanId);
    expect(inner?.spanContext().traceId).toBe(outer?.spanContext().traceId);
    expect(inner?.attributes['portal.test']).toBe(1);
    expect(inner?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });
    expect(inner?.events.map((event) => event.name)).toEqual(['exception']);
    expect(inner?.resource.attributes['service.name']).toBe('portal-test');
  });

  it('does not count an expected refusal as a failure', async () => {
    exporter.reset();
    await expect(
      inSpan(tracer, 'refused', { isFailure: () => false }, () => Promise.reject(new Error('no'))),
    ).rejects.toThrow('no');
    expect((await finishedSpans())[0]?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('puts trace_id and span_id on log lines written inside a span, and only there', async () => {
    lines.length = 0;
    let ids = { traceId: '', spanId: '' };
    await inSpan(tracer, 'logged', {}, async (span) => {
      ids = span.spanContext();
      await Promise.resolve();
      logger.child({ requestId: 'r1' }).info({ field: 1 }, 'inside');
    });
    logger.info('outside');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      msg: 'inside',
      field: 1,
      requestId: 'r1',
      trace_id: ids.traceId,
      span_id: ids.spanId,
    });
    expect(lines[1]?.msg).toBe('outside');
    expect(lines[1]).not.toHaveProperty('trace_id');
  });

  it('carries a trace across a traceparent: a span started under it continues the same trace', async () => {
    exporter.reset();
    let carried: string | undefined;
    await inSpan(tracer, 'writer', {}, async () => {
      carried = currentTraceParent();
      await Promise.resolve();
    });
    expect(carried).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const parent = contextOfTraceParent(carried);
    expect(parent).toBeDefined();
    await inSpan(tracer, 'reader', parent ? { parent } : {}, () => Promise.resolve());
    const [writer, reader] = await finishedSpans();
    expect(reader?.spanContext().traceId).toBe(writer?.spanContext().traceId);
    expect(reader?.parentSpanContext?.spanId).toBe(writer?.spanContext().spanId);
    expect(parseTraceParent(carried)).toMatchObject({ isRemote: true, traceFlags: 1 });
  });
});
