/**
 * Runs `task` for every element with at most `limit` running at once, each runner taking the next element as
 * soon as its previous task finished; answers the results in the elements' order.
 */
export async function mapConcurrently<In, Out>(
  elements: readonly In[],
  limit: number,
  task: (element: In, index: number) => Promise<Out>,
): Promise<Out[]> {
  const results = new Array<Out>(elements.length);
  let next = 0;
  const runner = async (): Promise<void> => {
    while (next < elements.length) {
      const index = next;
      next += 1;
      results[index] = await task(elements[index] as In, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, elements.length) }, runner));
  return results;
}
