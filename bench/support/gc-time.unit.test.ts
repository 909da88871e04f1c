import { describe, expect, it } from 'vitest';
import { recordGcPauses } from './gc-time.js';

describe('recordGcPauses', () => {
  it('counts the scavenges of a stretch that allocates, and none before it began', async () => {
    const gc = recordGcPauses();
    try {
      const startedAt = performance.now();
      // About 100 MB of short-lived arrays: several times the young generation, so it is collected.
      let kept = 0;
      for (let index = 0; index < 200_000; index += 1) kept += new Array<number>(64).fill(index).length;
      const endedAt = performance.now();
      expect(kept).toBe(200_000 * 64);
      // Node reports a collection on the event loop after it, not during the loop that caused it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const during = gc.between(startedAt, endedAt);
      expect(during.minor + during.major).toBeGreaterThan(0);
      expect(gc.between(0, startedAt - 1)).toEqual({ minor: 0, major: 0 });
    } finally {
      gc.stop();
    }
  });
});
