import {
  ANY,
  NO_STREAM,
  START as ESDB_START,
  STREAM_EXISTS,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import type {
  AppendExpectedRevision,
  CurrentRevision,
  JSONEventData,
  JSONType,
  Position as EsdbPosition,
  ReadPosition,
  RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import { ConcurrencyError, START, comparePositions, upcastRecordedEvent } from '@portal/domain';
import type { EventToAppend, ExpectedRevision, Position, RecordedEvent } from '@portal/domain';
import { assertNever, describeRevision } from '../append-rules.js';
import { toStoredMetadata } from '../stored-metadata.js';

/** Translations between the port's types and `@eventstore/db-client`'s, kept pure for unit tests. */

export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (typeof expected === 'bigint') return expected;
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      return assertNever(expected);
  }
}

export function toEsdbEventData(event: EventToAppend): JSONEventData {
  return {
    id: event.id,
    contentType: 'application/json',
    type: event.type,
    // The client serializes with JSON.stringify; its narrower type only documents the usual shapes.
    data: event.data as JSONType,
    metadata: { ...event.metadata },
  };
}

/** `START` means "from the beginning"; any other position is exclusive, as the port requires. */
export function toEsdbFromPosition(after: Position): ReadPosition {
  return comparePositions(after, START) === 0 ? ESDB_START : { commit: after.commit, prepare: after.prepare };
}

export function fromEsdbPosition(position: EsdbPosition | undefined, context: string): Position {
  if (!position)
    throw new Error(`EventStoreDB returned no position for ${context}; it needs server 20.10 or later`);
  return { commit: position.commit, prepare: position.prepare };
}

/** Decodes an event; stored events of an older schema version reach readers in today's shape. */
export function fromEsdbRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  return upcastRecordedEvent({
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    position: fromEsdbPosition(event.position, `event ${event.id}`),
    type: event.type,
    data: event.data,
    metadata: toStoredMetadata(event.metadata, event.id),
  });
}

/** Leaves every other error as it is. */
export function toConcurrencyError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  if (!(error instanceof WrongExpectedVersionError)) return error;
  return new ConcurrencyError(
    streamId,
    describeRevision(expected),
    describeCurrentRevision(error.actualVersion),
  );
}

function describeCurrentRevision(current: CurrentRevision): string {
  return typeof current === 'bigint' ? current.toString() : 'no_stream';
}
