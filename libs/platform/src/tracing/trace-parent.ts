import {
  isSpanContextValid,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Context,
  type SpanContext,
} from '@opentelemetry/api';

/** `version-traceid-spanid-flags` of W3C Trace Context, version 00 (the only one defined). */
const TRACE_PARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The W3C `traceparent` of a span context: what event metadata and job data carry, so a process that
 * handles them later continues the trace. Written here rather than through the SDK's propagator: it is
 * read and written whether or not the SDK is loaded, and always in the W3C form, whatever
 * `OTEL_PROPAGATORS` chooses for HTTP.
 */
export function formatTraceParent(spanContext: SpanContext): string {
  const flags = (spanContext.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/**
 * The remote span context a `traceparent` names; `undefined` for anything else (an event written before
 * tracing, by a process without it, or data from elsewhere: never trusted to be well formed).
 */
export function parseTraceParent(text: unknown): SpanContext | undefined {
  if (typeof text !== 'string') return undefined;
  const match = TRACE_PARENT.exec(text);
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  const spanContext: SpanContext = {
    traceId: match[1],
    spanId: match[2],
    traceFlags: Number.parseInt(match[3], 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(spanContext) ? spanContext : undefined;
}

/**
 * The `traceparent` of the span active here; `undefined` when there is none, which is always the case
 * while tracing is off (no SDK, no context manager): then nothing is added to events or jobs.
 */
export function currentTraceParent(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && isSpanContextValid(spanContext) ? formatTraceParent(spanContext) : undefined;
}

/** A context whose parent is the span a `traceparent` names; `undefined` when it names none. */
export function contextOfTraceParent(text: unknown, base: Context = ROOT_CONTEXT): Context | undefined {
  const spanContext = parseTraceParent(text);
  return spanContext ? trace.setSpanContext(base, spanContext) : undefined;
}
