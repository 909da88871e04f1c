import { TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { formatTraceParent, parseTraceParent } from './trace-parent.js';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const spanId = '00f067aa0ba902b7';

describe('the W3C traceparent', () => {
  it('writes and reads back a sampled and an unsampled span context', () => {
    for (const traceFlags of [TraceFlags.SAMPLED, TraceFlags.NONE]) {
      const text = formatTraceParent({ traceId, spanId, traceFlags });
      expect(text).toBe(`00-${traceId}-${spanId}-0${String(traceFlags)}`);
      expect(parseTraceParent(text)).toEqual({ traceId, spanId, traceFlags, isRemote: true });
    }
  });

  it('reads nothing from what is not a version-00 traceparent with valid ids', () => {
    for (const text of [
      undefined,
      null,
      42,
      '',
      `01-${traceId}-${spanId}-01`,
      `00-${traceId.toUpperCase()}-${spanId}-01`,
      `00-${'0'.repeat(32)}-${spanId}-01`,
      `00-${traceId}-${'0'.repeat(16)}-01`,
      `00-${traceId}-${spanId}-1`,
      `00-${traceId}-${spanId}-01-extra`,
      ` 00-${traceId}-${spanId}-01`,
    ]) {
      expect(parseTraceParent(text)).toBeUndefined();
    }
  });

  it('keeps only the sampled flag of future flag bits', () => {
    expect(parseTraceParent(`00-${traceId}-${spanId}-ff`)?.traceFlags).toBe(TraceFlags.SAMPLED);
  });
});
