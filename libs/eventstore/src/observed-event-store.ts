import {
  ConcurrencyError,
  type AppendOutcome,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type Position,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeAllOptions,
  streamCategoryOf,
} from '@portal/domain';
import { Counter, Histogram, inSpan, SpanKind, tracerOf, type Registry, type Span } from '@portal/platform';
import { stampTraceParent } from './trace-stamp.js';

type Operation = 'append' | 'append_many';

const tracer = tracerOf('@portal/eventstore');

/** A stale expected revision is an answer the command handler acts on (it reads and decides again). */
const isFailure = (error: unknown): boolean => !(error instanceof ConcurrencyError);

/**
 * The event-store port with its appends observed: measured (how long each call took and how it ended,
 * how many streams were refused for a stale expected revision) and traced (an `eventstore.append` span,
 * whose `traceparent` each event's metadata carries, so whoever handles the event later continues the
 * trace). Everything else passes straight through. Observing here, at the port, keeps the domain and
 * the adapters free of any metrics or tracing library, and covers every writer at once.
 */
export function observeAppends(store: EventStore, registry: Registry): EventStore {
  return new ObservedEventStore(store, appendMetrics(registry));
}

interface AppendMetrics {
  readonly duration: Histogram<'operation' | 'outcome'>;
  readonly conflicts: Counter<'operation'>;
}

function appendMetrics(registry: Registry): AppendMetrics {
  const duration = new Histogram({
    name: 'portal_eventstore_append_duration_seconds',
    help: 'Time of one event-store append call; outcome ok, conflict (a stream refused for its expected revision) or error.',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const conflicts = new Counter({
    name: 'portal_eventstore_append_conflicts_total',
    help: 'Streams an append refused because their expected revision did not hold (concurrent writers).',
    labelNames: ['operation'] as const,
    registers: [registry],
  });
  for (const operation of ['append', 'append_many'] as const) conflicts.inc({ operation }, 0);
  return { duration, conflicts };
}

class ObservedEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly metrics: AppendMetrics,
  ) {}

  append(
    streamId: string,
    events: readonly EventToAppend[],
    options: { readonly expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const attributes = {
      'portal.stream.category': streamCategoryOf(streamId),
      'portal.eventstore.events': events.length,
    };
    return inSpan(
      tracer,
      'eventstore.append',
      { kind: SpanKind.CLIENT, attributes, isFailure },
      async (span) => {
        const end = this.metrics.duration.startTimer({ operation: 'append' });
        try {
          const result = await this.inner.append(streamId, stampTraceParent(events), options);
          end({ outcome: 'ok' });
          noteOutcome(span, 'ok');
          return result;
        } catch (error) {
          const conflict = error instanceof ConcurrencyError;
          if (conflict) this.metrics.conflicts.inc({ operation: 'append' });
          end({ outcome: conflict ? 'conflict' : 'error' });
          noteOutcome(span, conflict ? 'conflict' : 'error');
          throw error;
        }
      },
    );
  }

  appendMany(appends: readonly StreamAppend[]): Promise<readonly AppendOutcome[]> {
    const operation: Operation = 'append_many';
    const attributes = {
      'portal.eventstore.streams': appends.length,
      'portal.eventstore.events': appends.reduce((sum, entry) => sum + entry.events.length, 0),
    };
    return inSpan(tracer, 'eventstore.append_many', { kind: SpanKind.CLIENT, attributes }, async (span) => {
      const end = this.metrics.duration.startTimer({ operation });
      try {
        const outcomes = await this.inner.appendMany(
          appends.map((entry) => ({ ...entry, events: stampTraceParent(entry.events) })),
        );
        let conflicts = 0;
        for (const outcome of outcomes)
          if (!outcome.ok && outcome.error instanceof ConcurrencyError) conflicts += 1;
        if (conflicts > 0) this.metrics.conflicts.inc({ operation }, conflicts);
        end({ outcome: conflicts > 0 ? 'conflict' : 'ok' });
        noteOutcome(span, conflicts > 0 ? 'conflict' : 'ok');
        if (conflicts > 0) span.setAttribute('portal.eventstore.conflicts', conflicts);
        return outcomes;
      } catch (error) {
        end({ outcome: 'error' });
        noteOutcome(span, 'error');
        throw error;
      }
    });
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<readonly RecordedEvent[]> {
    return this.inner.readStream(streamId, options);
  }

  streamRevision(streamId: string): Promise<bigint | null> {
    return this.inner.streamRevision(streamId);
  }

  subscribeAll(options: SubscribeAllOptions): AsyncIterable<readonly RecordedEvent[]> {
    return this.inner.subscribeAll(options);
  }

  headPosition(): Promise<Position> {
    return this.inner.headPosition();
  }

  syncPosition(signal?: AbortSignal): Promise<Position> {
    return this.inner.syncPosition(signal);
  }

  lastWrittenPosition(): Promise<Position> {
    return this.inner.lastWrittenPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The same outcome the duration metric is labelled with. */
function noteOutcome(span: Span, outcome: 'ok' | 'conflict' | 'error'): void {
  span.setAttribute('portal.eventstore.outcome', outcome);
}
