import { callAt } from '../http.js';

/** Reads of the portal browser and the items route as a caller, for the property test's checks. */

export interface ListedNode {
  readonly id: string;
  readonly parentId: string | null;
  readonly childCount: number;
  readonly path: string | null;
}

interface NodePage {
  readonly node?: ListedNode;
  readonly items: readonly ListedNode[];
  readonly next: string | null;
}

export interface Listing {
  readonly status: number;
  /** The node whose children these are (`null` for the root level or a refused read). */
  readonly node: ListedNode | null;
  readonly items: readonly ListedNode[];
}

/** Every page of a listing (`/root`, `/nodes/{id}/children`, `/path/…`), or the status that refused it. */
export async function listAll(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<Listing> {
  const items: ListedNode[] = [];
  let node: ListedNode | null = null;
  let cursor: string | null = null;
  do {
    const query: string = `limit=1000${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const page = await callAt<NodePage>(baseUrl, 'GET', `${path}?${query}`, { headers });
    if (page.status !== 200) return { status: page.status, node: null, items: [] };
    node ??= page.body.node ?? null;
    items.push(...page.body.items);
    cursor = page.body.next;
  } while (cursor !== null);
  return { status: 200, node, items };
}

export const browserPath = '/api/v1/browser';

/** Runs `tasks` with at most `limit` at a time: the checks send hundreds of reads, not all at once. */
export async function inParallel<T>(tasks: readonly (() => Promise<T>)[], limit = 6): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      const task = tasks[index];
      if (task) results[index] = await task();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}
