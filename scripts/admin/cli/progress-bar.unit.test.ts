import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProgressBar, progressLine } from './progress-bar.js';

describe('the rebuild progress line', () => {
  it('shows the bar, the share done, done against the estimated total, the rate and the time left', () => {
    expect(progressLine({ done: 12_000, fraction: 0.375, elapsedSeconds: 5 })).toBe(
      '[#########---------------]   37.5%  12,000/~32,000 events  2,400/s  ETA 8 s',
    );
  });

  it('knows no total, rate or time left before anything is done', () => {
    expect(progressLine({ done: 0, fraction: 0, elapsedSeconds: 0 })).toBe(
      '[------------------------]    0.0%  0/? events  0/s  ETA ?',
    );
  });

  it('never shows more than everything, nor a total below what is done', () => {
    expect(progressLine({ done: 500, fraction: 1.2, elapsedSeconds: 100 })).toBe(
      '[########################]  100.0%  500/~500 events  5/s  ETA 0 s',
    );
  });

  it('writes a line every two seconds when the stream is not a terminal, and the last state at the end', () => {
    const lines: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    let now = 0;
    const bar = new ProgressBar(out, () => now);
    for (now = 0; now <= 5_000; now += 500) bar.update(now, now / 10_000);
    bar.finish(10_000, 1, 'swapped in');
    expect(lines).toEqual([
      expect.stringContaining('0/? events'),
      expect.stringContaining('2,000/~10,000 events'),
      expect.stringContaining('4,000/~10,000 events'),
      expect.stringContaining('10,000/~10,000 events'),
      'swapped in\n',
    ]);
  });

  it('draws at once when the detail changes, in its own unit, with the detail last', () => {
    const lines: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    let now = 0;
    const bar = new ProgressBar(out, () => now, 'statements');
    bar.update(0, 0, 'index a');
    now = 100;
    bar.update(1, 0.25, 'index b');
    now = 200;
    bar.update(1, 0.25, 'index b');
    expect(lines).toEqual([
      '[------------------------]    0.0%  0/? statements  0/s  ETA ?  index a\n',
      '[######------------------]   25.0%  1/~4 statements  10/s  ETA 0 s  index b\n',
    ]);
  });
});
