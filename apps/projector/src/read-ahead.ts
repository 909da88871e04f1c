/**
 * The same items, with the next one already being read while the caller works on the current one:
 * a subscription fetches its next page while the projector applies this one.
 *
 * Leaving early (break, return, throw) does not wait for the read in flight: it may be waiting for new
 * events until its subscription is aborted, which the caller does after leaving. The source is closed
 * once that read settles.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  let finished = false;
  try {
    for (;;) {
      const result = await next;
      if (result.done === true) {
        finished = true;
        return;
      }
      next = iterator.next();
      yield result.value;
    }
  } finally {
    if (!finished) {
      const close = (): void => {
        iterator.return?.().catch(() => undefined);
      };
      next.then(close, close);
    }
  }
}
