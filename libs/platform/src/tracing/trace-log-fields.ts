import { isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * A pino mixin: every line written while a span is active carries its `trace_id` and `span_id`, so a
 * log search and a trace view find each other. A fresh object each call: pino merges the line's own
 * fields into what the mixin returns. While tracing is off no span is ever active, and this costs one
 * lookup per line.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
