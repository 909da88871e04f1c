import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@portal/domain';
import { HttpProblem } from '../http/problem.js';
import { encodeCursor } from '../read-model/cursor.js';
import { historySlice } from './history-page.js';

function stream(length: number): RecordedEvent[] {
  return Array.from({ length }, (_, index) => ({
    id: `event-${index}`,
    streamId: 'catalog-x',
    revision: BigInt(index),
    position: { commit: BigInt(100 + index), prepare: BigInt(100 + index) },
    type: 'PortalObjectUpdated',
    data: {},
    metadata: {
      actorId: null,
      orgId: null,
      correlationId: 'c',
      causationId: null,
      requestId: null,
      occurredAt: new Date(Date.UTC(2024, 0, 1, 0, index)).toISOString(),
      schemaVersion: 2,
    },
  }));
}

const revisionsOf = (events: readonly RecordedEvent[]) => events.map((event) => Number(event.revision));

describe('history pages', () => {
  it('walks the whole stream in pages, without gaps or repeats, and ends with no cursor', () => {
    const events = stream(5);
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages += 1) {
      const slice = historySlice(events, { limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...revisionsOf(slice.events));
      if (slice.next === null) break;
      cursor = slice.next;
    }
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('has no next page when the last page is exactly full', () => {
    const slice = historySlice(stream(4), { limit: 4 });
    expect(revisionsOf(slice.events)).toEqual([0, 1, 2, 3]);
    expect(slice.next).toBeNull();
  });

  it('refuses a cursor it did not write with 400', () => {
    for (const cursor of ['nonsense', encodeCursor([-1]), encodeCursor([1.5]), encodeCursor(['1'])]) {
      expect(() => historySlice(stream(3), { limit: 2, cursor })).toThrow(HttpProblem);
    }
  });
});
