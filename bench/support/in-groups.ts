/**
 * `make(0) … make(count - 1)`, `size` at a time (each group awaited before the next starts), results in
 * order. For setup work that must not flood the API: sign-ups, creates, connections.
 */
export async function inGroups<T>(
  count: number,
  size: number,
  make: (n: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += size) {
    const group = Array.from({ length: Math.min(size, count - start) }, (_, index) => make(start + index));
    results.push(...(await Promise.all(group)));
  }
  return results;
}
