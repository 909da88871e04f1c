import {
  EVENT_SCHEMA_VERSION,
  streamIdOf,
  type EventMetadata,
  type PortalKind,
  type PortalObjectEvent,
} from '@portal/domain';
import type { SeedEvent } from '../browser/tree-generator.js';

/** Who wrote a seeded event, and when: the metadata an API request would have given it. */
export interface SeedAuthor {
  readonly actorId: string;
  readonly orgId: string;
  readonly requestId: string;
  readonly eventId: string;
  /** Milliseconds since the epoch. */
  readonly occurredAt: number;
}

/** One event of a generated history as a row of `eventstore.events` (bench/browser/seed-events.ts). */
export function seedEventRow(
  kind: PortalKind,
  id: string,
  revision: number,
  event: PortalObjectEvent,
  author: SeedAuthor,
): SeedEvent {
  const metadata: EventMetadata = {
    actorId: author.actorId,
    orgId: author.orgId,
    correlationId: author.requestId,
    causationId: null,
    requestId: author.requestId,
    occurredAt: new Date(author.occurredAt).toISOString(),
    // As the API writes them today: the generated creates carry their access, so no reader upcasts them.
    schemaVersion: EVENT_SCHEMA_VERSION,
  };
  return {
    streamId: streamIdOf(kind, id),
    revision,
    eventId: author.eventId,
    type: event.type,
    data: JSON.stringify(event.data),
    metadata: JSON.stringify(metadata),
  };
}
