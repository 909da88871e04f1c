import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bufferedLogDestination } from './buffered-log-destination.js';
import { createLogger } from './logger.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function logFile(): string {
  const directory = mkdtempSync(join(tmpdir(), 'buffered-log-'));
  directories.push(directory);
  return join(directory, 'log.ndjson');
}

const flushed = (destination: { flush(done: (error?: Error) => void): void }) =>
  new Promise<void>((resolve, reject) => {
    destination.flush((error) => {
      if (error) reject(error);
      else resolve();
    });
  });

const linesOf = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('bufferedLogDestination', () => {
  // A timer that never fires within a test: what is written is what the buffer or a flush wrote.
  const never = { bytes: 4096, flushEveryMs: 3_600_000 };

  it('keeps lines shorter than the buffer until flushed, then writes every one whole and in order', async () => {
    const file = logFile();
    const destination = bufferedLogDestination(file, never);
    const logger = createLogger({ name: 'test', level: 'info', destination });
    logger.info({ req: { id: 'a' } }, 'request completed');
    logger.info({ req: { id: 'b' } }, 'request completed');
    // Long enough for a write of its own to land; correct code passes whatever the delay.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readFileSync(file, 'utf8')).toBe('');
    await flushed(destination);
    expect(linesOf(file).map((line) => (line.req as { id: string }).id)).toEqual(['a', 'b']);
  });

  it('writes once the buffer is full, without a flush', async () => {
    const file = logFile();
    const destination = bufferedLogDestination(file, { bytes: 1024, flushEveryMs: 3_600_000 });
    const logger = createLogger({ name: 'test', level: 'info', destination });
    const ids = Array.from({ length: 40 }, (_, index) => `request-${index}`);
    for (const id of ids) logger.info({ req: { id } }, 'request completed');
    // Only the writes the full buffer started, awaited without a flush (which would write the rest too).
    while (readFileSync(file, 'utf8') === '') await new Promise((resolve) => setTimeout(resolve, 5));
    const written = linesOf(file).map((line) => (line.req as { id: string }).id);
    expect(written).toEqual(ids.slice(0, written.length));
    await flushed(destination);
    expect(linesOf(file).map((line) => (line.req as { id: string }).id)).toEqual(ids);
  });
});
