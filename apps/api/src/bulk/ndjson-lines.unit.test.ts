import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ndjsonLines, type RawLine } from './ndjson-lines.js';

async function linesOf(chunks: readonly (string | Buffer)[], max = 16): Promise<RawLine[]> {
  const lines: RawLine[] = [];
  const body = Readable.from(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
  for await (const line of ndjsonLines(body as AsyncIterable<Buffer>, max)) lines.push(line);
  return lines;
}

describe('ndjsonLines', () => {
  it('numbers lines as an editor does, across chunk borders, skipping blank ones', async () => {
    expect(await linesOf(['{"a"', ':1}\n\n  \r\n{"b":2}\r\n{"c"', ':3}'])).toEqual([
      { line: 1, kind: 'text', text: '{"a":1}' },
      { line: 4, kind: 'text', text: '{"b":2}' },
      { line: 5, kind: 'text', text: '{"c":3}' },
    ]);
  });

  it('reports a line over the bound without keeping it, and reads on after it', async () => {
    expect(await linesOf(['x'.repeat(10), 'y'.repeat(10), '\n{"ok":1}\n'])).toEqual([
      { line: 1, kind: 'too-long' },
      { line: 2, kind: 'text', text: '{"ok":1}' },
    ]);
  });

  it('reports invalid UTF-8, even when a character is split between chunks', async () => {
    const euro = Buffer.from('"€"\n');
    expect(await linesOf([euro.subarray(0, 2), euro.subarray(2), Buffer.from([0xff, 0x0a])])).toEqual([
      { line: 1, kind: 'text', text: '"€"' },
      { line: 2, kind: 'not-utf8' },
    ]);
  });
});
