import type { RecordedEvent } from '@portal/domain';
import {
  inSpan,
  parseTraceParent,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  tracerOf,
  type InSpanOptions,
  type Link,
} from '@portal/platform';
import type { BatchOutcome } from './batch.js';

const tracer = tracerOf('@portal/projector');

/** Links one batch span carries at most: a bulk import's batch may hold hundreds of writers' events. */
export const MAX_BATCH_LINKS = 64;

/**
 * Applies a batch inside a `projector.batch` span that belongs to the trace of what wrote its events.
 * A batch of one writer's events (one request, one upload job: the usual live case) is a child of that
 * writer's append, so the request's trace shows its projection. A batch of several writers' events is
 * the child of the first and links to the others (at most `MAX_BATCH_LINKS`): a span has one parent,
 * and a trace view follows links. Events without a trace (tracing was off when they were written, or a
 * rebuild replays them) add nothing; a batch of only those starts a trace of its own.
 */
export function traceBatch(
  projection: string,
  batch: readonly RecordedEvent[],
  apply: () => Promise<BatchOutcome>,
): Promise<BatchOutcome> {
  return inSpan(tracer, 'projector.batch', batchSpanOptions(projection, batch), async (span) => {
    const outcome = await apply();
    span.setAttribute('portal.projector.outcome', outcome.kind);
    return outcome;
  });
}

export function batchSpanOptions(projection: string, batch: readonly RecordedEvent[]): InSpanOptions {
  const writers: Link[] = [];
  const seen = new Set<string>();
  for (const event of batch) {
    const traceParent = event.metadata.traceParent;
    if (traceParent === undefined || seen.has(traceParent)) continue;
    seen.add(traceParent);
    // Metadata comes from the store: anything malformed there simply names no trace.
    const spanContext = parseTraceParent(traceParent);
    if (spanContext) writers.push({ context: spanContext });
  }
  const [first, ...others] = writers;
  return {
    kind: SpanKind.CONSUMER,
    parent: first ? trace.setSpanContext(ROOT_CONTEXT, first.context) : ROOT_CONTEXT,
    links: others.slice(0, MAX_BATCH_LINKS),
    attributes: {
      'portal.projection': projection,
      'portal.projector.events': batch.length,
      'portal.projector.traced_writes': writers.length,
    },
  };
}
