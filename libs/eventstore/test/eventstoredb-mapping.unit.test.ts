import {
  ANY,
  NO_STREAM,
  START as ESDB_START,
  STREAM_EXISTS,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { ConcurrencyError, START } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import {
  fromEsdbRecordedEvent,
  toConcurrencyError,
  toEsdbEventData,
  toEsdbExpectedRevision,
  toEsdbFromPosition,
} from '../src/eventstoredb/mapping.js';
import { newEvent } from './event-store-test-kit.js';

describe('EventStoreDB mapping', () => {
  it('maps every expected revision to the client’s constants', () => {
    expect(toEsdbExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toEsdbExpectedRevision('exists')).toBe(STREAM_EXISTS);
    expect(toEsdbExpectedRevision('any')).toBe(ANY);
    expect(toEsdbExpectedRevision(7n)).toBe(7n);
  });

  it('maps WrongExpectedVersionError to ConcurrencyError and leaves other errors alone', () => {
    const wrong = new WrongExpectedVersionError(undefined, { streamName: 's-1', expected: 3n, current: 5n });
    expect(toConcurrencyError(wrong, 's-1', 3n)).toMatchObject({
      constructor: ConcurrencyError,
      streamId: 's-1',
      expected: '3',
      actual: '5',
    });
    const missing = new WrongExpectedVersionError(undefined, {
      streamName: 's-2',
      expected: STREAM_EXISTS,
      current: NO_STREAM,
    });
    expect(toConcurrencyError(missing, 's-2', 'exists')).toMatchObject({
      expected: 'exists',
      actual: 'no_stream',
    });
    const other = new Error('unavailable');
    expect(toConcurrencyError(other, 's-1', 'any')).toBe(other);
  });

  it('subscribes from the start for START and after the position otherwise', () => {
    expect(toEsdbFromPosition(START)).toBe(ESDB_START);
    expect(toEsdbFromPosition({ commit: 10n, prepare: 9n })).toEqual({ commit: 10n, prepare: 9n });
  });

  it('writes JSON events with the metadata and reads them back', () => {
    const event = newEvent('ThingCreated', { title: 'x' });
    const written = toEsdbEventData(event);
    expect(written).toEqual({
      id: event.id,
      contentType: 'application/json',
      type: 'ThingCreated',
      data: { title: 'x' },
      metadata: event.metadata,
    });
    const recorded = fromEsdbRecordedEvent({
      streamId: 's-1',
      id: event.id,
      isJson: true,
      revision: 4n,
      type: 'ThingCreated',
      created: new Date(),
      data: { title: 'x' },
      metadata: { ...event.metadata },
      position: { commit: 20n, prepare: 20n },
    });
    expect(recorded).toEqual({
      id: event.id,
      streamId: 's-1',
      revision: 4n,
      position: { commit: 20n, prepare: 20n },
      type: 'ThingCreated',
      data: { title: 'x' },
      metadata: event.metadata,
    });
  });
});
