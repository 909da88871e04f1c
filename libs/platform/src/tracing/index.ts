export { startTracing, type SpanProcessor, type Tracing, type TracingOptions } from './start-tracing.js';
export { tracingSettingsOf, type TracingSettings } from './tracing-settings.js';
export { inSpan, markFailed, tracerOf, type InSpanOptions } from './spans.js';
export {
  contextOfTraceParent,
  currentTraceParent,
  formatTraceParent,
  parseTraceParent,
} from './trace-parent.js';
export { traceLogFields } from './trace-log-fields.js';
// The apps make their spans with these, so @opentelemetry/api stays one dependency of this library.
export {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
