import {
  context,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';

/**
 * The tracer of one part of the service, named after its package (`@portal/api`, `@portal/eventstore`…).
 * Taken at module load: before an SDK registers (or when none does) it hands out spans that record
 * nothing, at the cost of a function call; once one registers, the same tracer records.
 */
export function tracerOf(name: string): Tracer {
  return trace.getTracer(name);
}

export interface InSpanOptions extends SpanOptions {
  /** The parent; the active context when left out. */
  readonly parent?: Context;
  /**
   * Whether a thrown error is a failure of this span (status `ERROR`, the exception recorded). A refusal
   * the caller is told about (a command the domain declines) is not: the span then only notes it.
   * Every error is a failure when left out.
   */
  readonly isFailure?: (error: unknown) => boolean;
}

/**
 * Runs `work` inside a new span, active for everything `work` awaits (so its children and log lines find
 * it), and ends it when `work` settles: with status `ERROR` and the exception when `work` throws a failure.
 */
export function inSpan<T>(
  tracer: Tracer,
  name: string,
  options: InSpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const { parent = context.active(), isFailure, ...spanOptions } = options;
  return tracer.startActiveSpan(name, spanOptions, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      if (isFailure?.(error) ?? true) markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Status `ERROR` with the error's message, and the exception as a span event (name, message, stack). */
export function markFailed(span: Span, error: unknown): void {
  if (!span.isRecording()) return;
  if (error instanceof Error) {
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  } else {
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
  }
}
