import { randomUUID } from 'node:crypto';
import { comparePositions } from '@portal/domain';
import type { EventMetadata, EventStore, EventToAppend, Position, RecordedEvent } from '@portal/domain';
import { ChangeSignal } from '../src/change-signal.js';

/** Fresh ids per test, so tests never see each other's streams. */
export function newStreamId(prefix = 'test'): string {
  return `${prefix}-${randomUUID()}`;
}

export function newMetadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    actorId: `user-${randomUUID()}`,
    orgId: null,
    correlationId: randomUUID(),
    causationId: null,
    requestId: randomUUID(),
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
    ...overrides,
  };
}

export function newEvent(type = 'TestHappened', data: unknown = { value: randomUUID() }): EventToAppend {
  return { id: randomUUID(), type, data, metadata: newMetadata() };
}

export function newEvents(count: number, type = 'TestHappened'): EventToAppend[] {
  return Array.from({ length: count }, (_, index) => newEvent(type, { index }));
}

/**
 * Runs a subscription in the background and records what it delivers, so a test can wait for a
 * condition with a deadline (never a sleep) and then stop it.
 */
export class SubscriptionRecorder {
  readonly batches: (readonly RecordedEvent[])[] = [];
  private readonly controller = new AbortController();
  private readonly changes = new ChangeSignal();
  private readonly finished: Promise<void>;
  private failure: Error | null = null;
  private ended = false;

  constructor(
    store: EventStore,
    options: { readonly after: Position; readonly maxBatchSize?: number },
    private readonly relevant: (event: RecordedEvent) => boolean = () => true,
  ) {
    this.finished = this.run(store, options);
  }

  /** Every delivered event, in delivery order. */
  get allEvents(): RecordedEvent[] {
    return this.batches.flat();
  }

  /** Delivered events that belong to the test (other writers may share the store). */
  get events(): RecordedEvent[] {
    return this.allEvents.filter(this.relevant);
  }

  get hasEnded(): boolean {
    return this.ended;
  }

  async waitFor(
    description: string,
    condition: (events: RecordedEvent[]) => boolean,
    timeoutMs = 10_000,
  ): Promise<void> {
    const deadline = AbortSignal.timeout(timeoutMs);
    for (;;) {
      const seen = this.changes.current;
      if (condition(this.events)) return;
      if (this.ended) throw new Error(`subscription ended before ${description}: ${String(this.failure)}`);
      if (deadline.aborted) {
        throw new Error(
          `timed out waiting for ${description}; got ${this.events.map((e) => e.type).join(', ')}`,
        );
      }
      await this.changes.waitForChange(seen, null, deadline);
    }
  }

  async waitForIds(ids: readonly string[], timeoutMs?: number): Promise<void> {
    const wanted = new Set(ids);
    await this.waitFor(
      `${ids.length} events`,
      (events) => events.filter((e) => wanted.has(e.id)).length >= wanted.size,
      timeoutMs,
    );
  }

  /** Aborts the subscription and resolves once its iteration has ended; rethrows its error. */
  async stop(): Promise<void> {
    this.controller.abort();
    await this.finished;
    if (this.failure) throw this.failure;
  }

  /** Resolves once the iteration has ended on its own (e.g. the store closed); never rejects. */
  whenEnded(): Promise<void> {
    return this.finished;
  }

  private async run(
    store: EventStore,
    options: { readonly after: Position; readonly maxBatchSize?: number },
  ): Promise<void> {
    try {
      for await (const batch of store.subscribeAll({ ...options, signal: this.controller.signal })) {
        this.batches.push(batch);
        this.changes.notify();
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
    } finally {
      this.ended = true;
      this.changes.notify();
    }
  }
}

export function isStrictlyIncreasing(positions: readonly Position[]): boolean {
  return positions.every((position, index) => {
    const previous = positions[index - 1];
    return previous === undefined || comparePositions(previous, position) < 0;
  });
}

/** Polls a condition until it holds or the deadline passes; for state that has no change signal. */
export async function waitUntil(
  description: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
