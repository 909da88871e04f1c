import { pino, type DestinationStream } from 'pino';

/** About a dozen request lines: one write where there were twelve. */
const BUFFER_BYTES = 4096;
/** The longest a line waits for others to share its write (a quiet process writes each within this). */
const FLUSH_EVERY_MS = 100;

export interface BufferedLogDestination extends DestinationStream {
  /** Writes every line buffered so far; `done` once they are written. */
  flush(done?: (error?: Error) => void): void;
}

/**
 * Log lines written in chunks of about 4 KB rather than one write per line, and at most 100 ms late.
 * A busy API logs a line per request: each was a write of its own to the pipe, handed to a thread and
 * back, which cost more of a cheap read's CPU than building its answer (bench/README.md, "STAC pages over
 * HTTP"). Nothing is dropped and nothing changes in a line: on exit, an uncaught exception included, what
 * is buffered is written synchronously (pino's exit hook); a process killed outright (SIGKILL, OOM) loses
 * the last 100 ms of lines at most. `dest` is stdout (fd 1) in the apps, a file in tests.
 */
export function bufferedLogDestination(
  dest: number | string = 1,
  options: { readonly bytes: number; readonly flushEveryMs: number } = {
    bytes: BUFFER_BYTES,
    flushEveryMs: FLUSH_EVERY_MS,
  },
): BufferedLogDestination {
  const stream = pino.destination({ dest, sync: false, minLength: options.bytes });
  let unwritten = false;
  const flush = (done?: (error?: Error) => void): void => {
    unwritten = false;
    stream.flush(done);
  };
  // Only when a line waits: an idle process writes nothing ten times a second.
  const timer = setInterval(() => {
    if (unwritten) flush();
  }, options.flushEveryMs);
  timer.unref();
  stream.once('close', () => {
    clearInterval(timer);
  });
  return {
    write(line: string): void {
      unwritten = true;
      stream.write(line);
    },
    flush,
  };
}
