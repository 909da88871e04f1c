import { describe, expect, it } from 'vitest';
import { readAhead } from './read-ahead.js';

/** A source that records when each item was asked for and whether it was closed. */
function recordingSource(items: readonly number[]) {
  const asked: number[] = [];
  let closed = false;
  async function* source(): AsyncGenerator<number> {
    try {
      for (const item of items) {
        asked.push(item);
        await Promise.resolve();
        yield item;
      }
    } finally {
      closed = true;
    }
  }
  return { source: source(), asked, isClosed: () => closed };
}

describe('readAhead', () => {
  it('yields every item in order, asking for the next one before the caller is done with the current', async () => {
    const { source, asked } = recordingSource([1, 2, 3]);
    const seen: [number, number[]][] = [];
    for await (const item of readAhead(source)) {
      // Let the read in flight run while "applying" this item.
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push([item, [...asked]]);
    }
    expect(seen).toEqual([
      [1, [1, 2]],
      [2, [1, 2, 3]],
      [3, [1, 2, 3]],
    ]);
  });

  it('closes the source after the read in flight settles when the caller leaves early', async () => {
    const { source, isClosed } = recordingSource([1, 2, 3, 4]);
    for await (const item of readAhead(source)) {
      if (item === 2) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(isClosed()).toBe(true);
  });
});
