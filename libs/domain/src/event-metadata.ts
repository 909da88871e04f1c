import type { RecordedEvent } from './event-store.js';
import { EVENT_SCHEMA_VERSION, type EventMetadata } from './metadata.js';

/** Who and what caused a command, as the writer (a request, a job) knows it. */
export interface CommandCause {
  /** The user acting; `null` when the system acts on its own (a worker, a sweep). */
  readonly actorId: string | null;
  readonly orgId: string | null;
  readonly correlationId: string;
  /** The event this command follows up on. */
  readonly causationId?: string | null;
  readonly requestId?: string | null;
  readonly at: Date;
  /** The operator running an admin command (docs/admin-cli.md); `actorId` is `null` then. */
  readonly operator?: string;
}

/** The metadata every writer records beside its events, in today's schema version. */
export function eventMetadata(cause: CommandCause): EventMetadata {
  return {
    actorId: cause.actorId,
    orgId: cause.orgId,
    correlationId: cause.correlationId,
    causationId: cause.causationId ?? null,
    requestId: cause.requestId ?? null,
    occurredAt: cause.at.toISOString(),
    schemaVersion: EVENT_SCHEMA_VERSION,
    ...(cause.operator === undefined ? {} : { operator: cause.operator }),
  };
}

/** The event the system follows up on, and the request behind it when the job knows one. */
export interface FollowUp {
  readonly event: RecordedEvent | undefined;
  /** The request id a job carries; otherwise the event's. */
  readonly requestId: string | null;
  /** The correlation id when there is no event to inherit one from. */
  readonly fallbackCorrelationId: string;
}

/**
 * Metadata of what the system records on its own in reply to an earlier event (an upload completed,
 * expired): no actor, and the correlation id and organization of that event, so an auditor can follow a
 * request into the events it led to.
 */
export function followUpMetadata(followUp: FollowUp, at: Date): EventMetadata {
  const inherited = followUp.event?.metadata;
  return eventMetadata({
    actorId: null,
    orgId: inherited?.orgId ?? null,
    correlationId: inherited?.correlationId ?? followUp.fallbackCorrelationId,
    causationId: followUp.event?.id ?? null,
    requestId: followUp.requestId ?? inherited?.requestId ?? null,
    at,
  });
}
