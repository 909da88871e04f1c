/**
 * Runs `work` over `items` with at most `limit` at a time, answers in the order of `items`. The stack
 * under test shares two cores with the test runner: a bounded pool keeps thousands of setup requests
 * from queueing up all at once (and timing out behind each other), while still overlapping their waits.
 */
export async function inPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
