import { describe, expect, it } from 'vitest';
import { parseAsOf, type AsOf } from '@portal/contracts';
import type { PortalObjectEvent, RecordedEvent } from '@portal/domain';
import { pastObject } from './as-of.js';

const id = '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f';

function recorded(revision: number, minute: number, event: PortalObjectEvent): RecordedEvent {
  return {
    id: `event-${revision}`,
    streamId: `catalog-${id}`,
    revision: BigInt(revision),
    position: { commit: BigInt(revision), prepare: BigInt(revision) },
    type: event.type,
    data: event.data,
    metadata: {
      actorId: null,
      orgId: null,
      correlationId: 'c',
      causationId: null,
      requestId: null,
      occurredAt: new Date(Date.UTC(2024, 0, 1, 12, minute)).toISOString(),
      schemaVersion: 2,
    },
  };
}

const retitled = (from: string, to: string): PortalObjectEvent => ({
  type: 'PortalObjectUpdated',
  data: { id, kind: 'catalog', changes: { title: to }, previous: { title: from } },
});

const events = [
  recorded(0, 0, {
    type: 'CatalogCreated',
    data: {
      id,
      title: 'First',
      description: 'd',
      parentId: null,
      links: [],
      orgId: null,
      visibility: 'org',
      createdBy: null,
    },
  }),
  recorded(1, 10, retitled('First', 'Second')),
  recorded(2, 20, retitled('Second', 'Third')),
  recorded(3, 30, { type: 'PortalObjectDeleted', data: { id, kind: 'catalog', recursive: false } }),
];

function asOf(text: string): AsOf {
  const parsed = parseAsOf(text);
  if (parsed === null) throw new Error(`not an asOf: ${text}`);
  return parsed;
}

function titleAt(text: string): string {
  const past = pastObject(events, asOf(text));
  if (typeof past === 'string') throw new Error(past);
  return past.state.title;
}

describe('the object as it was', () => {
  it('folds the events that occurred at or before a time', () => {
    expect(titleAt('2024-01-01T12:00:00Z')).toBe('First');
    expect(titleAt('2024-01-01T12:15:00Z')).toBe('Second');
    expect(titleAt('2024-01-01T12:20:00.000Z')).toBe('Third');
    // The same instant in another offset.
    expect(titleAt('2024-01-01T14:10:00+02:00')).toBe('Second');
  });

  it('folds the events up to a revision, and knows its last event', () => {
    expect(titleAt('1')).toBe('Second');
    const past = pastObject(events, asOf('2'));
    expect(typeof past === 'string' ? past : Number(past.events.at(-1)?.revision)).toBe(2);
  });

  it('says why there is nothing: before creation, after deletion, past the last revision', () => {
    expect(pastObject(events, asOf('2023-12-31T23:59:59Z'))).toBe('not-created');
    expect(pastObject(events, asOf('2024-01-01T12:30:00Z'))).toBe('deleted');
    expect(pastObject(events, asOf('3'))).toBe('deleted');
    expect(pastObject(events, asOf('4'))).toBe('no-such-revision');
  });

  it('stops at the first event after the time, even if a later one reads earlier', () => {
    const skewed = [...events.slice(0, 2), recorded(2, 5, retitled('Second', 'Skewed'))];
    const past = pastObject(skewed, asOf('2024-01-01T12:07:00Z'));
    expect(typeof past === 'string' ? past : past.state.title).toBe('First');
  });
});
