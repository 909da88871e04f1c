import { Writable } from 'node:stream';
import { context, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { inSpan, tracerOf } from './spans.js';
import { startTracing } from './start-tracing.js';
import { currentTraceParent } from './trace-parent.js';

/** A logger whose lines land in `lines`, parsed. */
function capturedLogger(): { logger: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as never);
      callback();
    },
  });
  return { logger: createLogger({ name: 'test', level: 'info', destination }), lines };
}

describe('tracing while no exporter is configured', () => {
  it('starts nothing: the SDK is never loaded, and spans, context and log lines stay bare', async () => {
    const { logger, lines } = capturedLogger();
    let loads = 0;
    const loadSdk = () => {
      loads += 1;
      return import('@opentelemetry/sdk-node');
    };
    for (const env of [
      {},
      { OTEL_SERVICE_NAME: 'portal-api' },
      { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' },
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' },
    ]) {
      const tracing = await startTracing({ serviceName: 'api', logger, env, loadSdk });
      expect(tracing.enabled).toBe(false);
      await tracing.shutdown();
    }
    expect(loads).toBe(0);

    // The API's no-ops: a span records nothing and has no ids, and no context manager carries it.
    let traceParentInside: string | undefined = 'not read';
    await inSpan(tracerOf('@portal/test'), 'work', {}, async (span) => {
      expect(span.isRecording()).toBe(false);
      expect(trace.isSpanContextValid(span.spanContext())).toBe(false);
      traceParentInside = currentTraceParent();
      logger.info('inside a span');
      await Promise.resolve();
    });
    expect(traceParentInside).toBeUndefined();
    expect(trace.getActiveSpan()).toBeUndefined();
    expect(context.active().getValue(Symbol.for('OpenTelemetry Context Key SPAN'))).toBeUndefined();
    expect(lines.map((line) => line.msg)).toEqual(['inside a span']);
    expect(lines[0]).not.toHaveProperty('trace_id');
    expect(lines[0]).not.toHaveProperty('span_id');
  });
});
