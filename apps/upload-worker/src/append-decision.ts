import {
  EVENT_SCHEMA_VERSION,
  ConcurrencyError,
  decide,
  DomainError,
  type EventMetadata,
  type EventStore,
  type ItemCommand,
  type PortalObjectEvent,
  type Position,
  type RecordedEvent,
} from '@portal/domain';
import { loadItem, type LoadedItem } from './item-stream.js';

/** A conflict means someone else wrote the stream meanwhile; a few fresh reads settle any real race. */
const MAX_DECISIONS = 5;

export interface DecisionDependencies {
  readonly eventStore: EventStore;
  readonly now: () => Date;
  readonly newId: () => string;
}

export interface AppendedDecision {
  /** Empty when the decider found nothing left to record (an earlier attempt already did). */
  readonly events: readonly PortalObjectEvent[];
  readonly position: Position | null;
}

/** Where the worker's events come from: the event they follow up on, and the request behind it. */
export interface Cause {
  readonly event: RecordedEvent | undefined;
  /** The request id the job carries; otherwise the cause's. */
  readonly requestId: string | null;
  /** Used when there is no cause event to inherit a correlation id from. */
  readonly fallbackCorrelationId: string;
}

/**
 * The worker acts for the system, so no actor; the correlation id and organization are inherited from
 * the event that caused the work, so an auditor can follow a request into the worker's events.
 */
export function metadataOf(cause: Cause, now: Date): EventMetadata {
  const inherited = cause.event?.metadata;
  return {
    actorId: null,
    orgId: inherited?.orgId ?? null,
    correlationId: inherited?.correlationId ?? cause.fallbackCorrelationId,
    causationId: cause.event?.id ?? null,
    requestId: cause.requestId ?? inherited?.requestId ?? null,
    occurredAt: now.toISOString(),
    schemaVersion: EVENT_SCHEMA_VERSION,
  };
}

/**
 * Decides `command` on the item as loaded and appends at that revision. A conflict reads the stream
 * again and decides again: the decider answers nothing once an earlier or concurrent attempt recorded
 * the outcome, so a retried job never records anything twice. `DomainError`s of the decider propagate.
 */
export async function appendDecision(
  deps: DecisionDependencies,
  loaded: LoadedItem,
  command: ItemCommand,
  cause: Cause,
): Promise<AppendedDecision> {
  let item = loaded;
  for (let decision = 1; ; decision += 1) {
    const events = decide(command, item.state);
    if (events.length === 0) return { events, position: null };
    const metadata = metadataOf(cause, deps.now());
    try {
      const result = await deps.eventStore.append(
        item.streamId,
        events.map((event) => ({ id: deps.newId(), type: event.type, data: event.data, metadata })),
        { expectedRevision: item.revision ?? 'no_stream' },
      );
      return { events, position: result.position };
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || decision >= MAX_DECISIONS) throw error;
      item = await loadItem(deps.eventStore, item.itemId);
    }
  }
}

/**
 * `appendDecision` for clean-ups (aborting an upload): when the decider refuses after a fresh read, a
 * concurrent job or sweep has already ended the upload, and there is nothing left to record.
 */
export async function appendUnlessEnded(
  deps: DecisionDependencies,
  loaded: LoadedItem,
  command: ItemCommand,
  cause: Cause,
): Promise<AppendedDecision> {
  try {
    return await appendDecision(deps, loaded, command, cause);
  } catch (error) {
    if (error instanceof DomainError && !(error instanceof ConcurrencyError))
      return { events: [], position: null };
    throw error;
  }
}
