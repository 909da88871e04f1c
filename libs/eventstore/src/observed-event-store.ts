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
} from '@portal/domain';
import { Counter, Histogram, type Registry } from '@portal/platform';

type Operation = 'append' | 'append_many';

/**
 * The event-store port with its appends measured: how long each call took and how it ended, and how
 * many streams were refused for a stale expected revision. Everything else passes straight through.
 * Measuring here, at the port, keeps the domain and the adapters free of any metrics library.
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

  async append(
    streamId: string,
    events: readonly EventToAppend[],
    options: { readonly expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const end = this.metrics.duration.startTimer({ operation: 'append' });
    try {
      const result = await this.inner.append(streamId, events, options);
      end({ outcome: 'ok' });
      return result;
    } catch (error) {
      const conflict = error instanceof ConcurrencyError;
      if (conflict) this.metrics.conflicts.inc({ operation: 'append' });
      end({ outcome: conflict ? 'conflict' : 'error' });
      throw error;
    }
  }

  async appendMany(appends: readonly StreamAppend[]): Promise<readonly AppendOutcome[]> {
    const operation: Operation = 'append_many';
    const end = this.metrics.duration.startTimer({ operation });
    try {
      const outcomes = await this.inner.appendMany(appends);
      let conflicts = 0;
      for (const outcome of outcomes)
        if (!outcome.ok && outcome.error instanceof ConcurrencyError) conflicts += 1;
      if (conflicts > 0) this.metrics.conflicts.inc({ operation }, conflicts);
      end({ outcome: conflicts > 0 ? 'conflict' : 'ok' });
      return outcomes;
    } catch (error) {
      end({ outcome: 'error' });
      throw error;
    }
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
