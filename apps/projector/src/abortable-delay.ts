/** Reads the flag through a call, so TypeScript does not keep a narrowing from before an `await`. */
export function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

/** Waits `ms`, or less when `signal` aborts; never rejects, so callers simply re-check the signal. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
