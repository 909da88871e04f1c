import type { EventToAppend } from '@portal/domain';
import { currentTraceParent } from '@portal/platform';

/**
 * The events with the active span's `traceparent` in their metadata, so the projector's batch and any
 * later reader of an event can continue the trace that wrote it. The events as given when no span is
 * active (tracing off: nothing is copied) or when a writer already named a trace.
 */
export function stampTraceParent(events: readonly EventToAppend[]): readonly EventToAppend[] {
  const traceParent = currentTraceParent();
  if (traceParent === undefined) return events;
  return events.map((event) =>
    event.metadata.traceParent === undefined
      ? { ...event, metadata: { ...event.metadata, traceParent } }
      : event,
  );
}
