/**
 * The shape every writer (API, upload worker) records today; a new shape gets a new version.
 * 2: create events carry `orgId`, `visibility` and `createdBy` (version 1 events are upcast on read,
 * `upcastPortalObjectEvent`).
 */
export const EVENT_SCHEMA_VERSION = 2;

/** Who and what caused an event. Stored beside every event; the audit trail reads it. */
export interface EventMetadata {
  readonly actorId: string | null;
  readonly orgId: string | null;
  readonly correlationId: string;
  readonly causationId: string | null;
  readonly requestId: string | null;
  /** ISO 8601 UTC. */
  readonly occurredAt: string;
  readonly schemaVersion: number;
  /**
   * The W3C `traceparent` of the span that appended the event, while tracing is on: the projector's
   * batch and anything else that acts on the event continue that trace (docs/operations.md, "Traces").
   * Set by the event-store port as it appends, never by a decider; absent on events written with tracing
   * off or before it existed, so readers treat it as optional and never trust its form.
   */
  readonly traceParent?: string;
  /**
   * The platform operator who ran the admin command behind the event (`npm run admin`), named as they
   * gave it or as `user@host`; absent for everything a user or the service itself caused. `actorId` is
   * `null` then: an operator is not a user of any organization.
   */
  readonly operator?: string;
}

/** A domain event as deciders produce it: a tag and a payload. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
}
