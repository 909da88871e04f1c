import { Writable } from 'node:stream';
import { createLogger } from '@portal/platform';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FoldProgress } from './fold-progress.js';

/** The progress lines a fold writes, as the JSON objects pino prints. */
function recordedLines(): { lines: Record<string, unknown>[]; progress: FoldProgress } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const log = createLogger({ name: 'projector', level: 'info', destination });
  return { lines, progress: new FoldProgress(log, { commit: 1_000n, prepare: 1_000n }) };
}

describe('FoldProgress', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['performance'] }));
  afterEach(() => vi.useRealTimers());

  it('reports events, rate and the time left at that rate', async () => {
    const { lines, progress } = recordedLines();
    vi.advanceTimersByTime(10_000);
    progress.paged(2_500, { commit: 250n, prepare: 250n });
    await vi.waitFor(() => {
      expect(lines).toHaveLength(1);
    });
    expect(lines[0]).toMatchObject({ events: 2_500, eventsPerSecond: 250, etaSeconds: 30 });
  });

  it('leaves the time left out while no position says how far the fold is', async () => {
    const { lines, progress } = recordedLines();
    vi.advanceTimersByTime(6_000);
    progress.paged(0, { commit: -1n, prepare: -1n });
    await vi.waitFor(() => {
      expect(lines).toHaveLength(1);
    });
    expect(lines[0]).toHaveProperty('events', 0);
    expect(lines[0]).not.toHaveProperty('etaSeconds');
  });

  it('says nothing more often than every five seconds', () => {
    const { lines, progress } = recordedLines();
    vi.advanceTimersByTime(4_000);
    progress.paged(100, { commit: 10n, prepare: 10n });
    expect(lines).toHaveLength(0);
  });
});
