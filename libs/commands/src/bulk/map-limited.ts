/**
 * `Promise.all(items.map(work))` with at most `limit` pieces of work running at once, results in the
 * order of `items`. Bulk commands read many streams; unbounded, a batch of thousands would take every
 * connection of the pool at once and starve the other requests.
 */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) {
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** A settled piece of work: its value, or the error that refused it (never thrown on). */
export type Settled<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: Error };

export async function settle<T>(work: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: asError(error) };
  }
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
