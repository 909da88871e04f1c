import { Writable } from 'node:stream';
import type { Logger } from '@portal/platform';
import { pino } from 'pino';

export interface CapturedLogger {
  readonly logger: Logger;
  /** Every line written so far, parsed. */
  readonly lines: Record<string, unknown>[];
  messages(): string[];
}

/** A real pino logger writing into memory, so a test can assert what was logged. */
export function captureLogger(name: string, level = process.env.TEST_LOG_LEVEL ?? 'info'): CapturedLogger {
  const lines: Record<string, unknown>[] = [];
  const echo = process.env.TEST_LOG_LEVEL !== undefined;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        lines.push(JSON.parse(line) as Record<string, unknown>);
        if (echo) process.stderr.write(`${line}\n`);
      }
      callback();
    },
  });
  return {
    logger: pino({ name, level, base: { app: name } }, stream),
    lines,
    messages: () => lines.map((line) => String(line.msg)),
  };
}
