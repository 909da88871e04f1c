import type { RecordedEvent } from '@portal/domain';
import { createLogger } from '@portal/platform';
import type { Projection, ReadModel, Sql } from '@portal/read-model-core';
import { describe, expect, it } from 'vitest';
import { applyEventsInRuns } from './batch.js';

/** Events named by their type: `Lone` goes alone for the first read model, `Barrier` ends deferral. */
function eventOf(type: string, n: number): RecordedEvent {
  const position = BigInt(n);
  return {
    id: `event-${n}`,
    streamId: `stream-${n}`,
    revision: 0n,
    position: { commit: position, prepare: position },
    type,
    data: {},
    metadata: { occurredAt: '2026-01-01T00:00:00Z' } as RecordedEvent['metadata'],
  };
}

/** Two read models that write down what they were handed, in order, as `<model>:<what>(<events>)`. */
function recordingProjection(calls: string[]): Projection {
  const names = (events: readonly RecordedEvent[]): string => events.map((event) => event.id).join(',');
  const readModel = (name: string, extra: Partial<NonNullable<ReadModel['sets']>>): ReadModel => ({
    name,
    version: 1,
    ddl: '',
    apply: (_sql, event) => {
      calls.push(`${name}:apply(${event.id})`);
      return Promise.resolve();
    },
    sets: {
      footprint: (event) => (name === 'first' && event.type !== 'Run' ? null : {}),
      applyRun: (_sql, events) => {
        calls.push(`${name}:run(${names(events)})`);
        return Promise.resolve();
      },
      ...extra,
    },
  });
  return {
    name: 'recording',
    readModels: [
      readModel('first', {}),
      readModel('second', { defers: () => true, endsDeferral: (event) => event.type === 'Barrier' }),
    ],
  };
}

const sql: Sql = { query: () => Promise.reject(new Error('no statement expected')) };
const log = createLogger({ name: 'test', level: 'silent' });

describe('applyEventsInRuns with a read model that defers lone events', () => {
  it('hands them to its next run, in event order, and leaves the other read model as it was', async () => {
    const calls: string[] = [];
    const events = [eventOf('Run', 1), eventOf('Lone', 2), eventOf('Run', 3), eventOf('Run', 4)];
    await applyEventsInRuns(sql, recordingProjection(calls), events, log);
    expect(calls).toEqual([
      'first:run(event-1)',
      'second:run(event-1)',
      'first:apply(event-2)',
      'first:run(event-3,event-4)',
      'second:run(event-2,event-3,event-4)',
    ]);
  });

  it('applies what it deferred before an event that ends deferral reaches any read model', async () => {
    const calls: string[] = [];
    const events = [eventOf('Lone', 1), eventOf('Lone', 2), eventOf('Barrier', 3), eventOf('Run', 4)];
    await applyEventsInRuns(sql, recordingProjection(calls), events, log);
    expect(calls).toEqual([
      'first:apply(event-1)',
      'first:apply(event-2)',
      'second:run(event-1,event-2)',
      'first:apply(event-3)',
      'first:run(event-4)',
      'second:run(event-3,event-4)',
    ]);
  });

  it('applies what is still deferred at the end of the batch', async () => {
    const calls: string[] = [];
    await applyEventsInRuns(sql, recordingProjection(calls), [eventOf('Run', 1), eventOf('Lone', 2)], log);
    expect(calls).toEqual([
      'first:run(event-1)',
      'second:run(event-1)',
      'first:apply(event-2)',
      'second:run(event-2)',
    ]);
  });
});
