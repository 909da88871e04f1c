/**
 * PostgreSQL refuses NUL (`\u0000`) in text and jsonb, and a UTF-16 surrogate without its partner has
 * no UTF-8 form, so either would pass JSON parsing and zod and then fail the INSERT with a 500.
 * Request schemas refuse them up front with a 400 that names the field.
 */
// eslint-disable-next-line no-control-regex -- NUL is the control character this looks for.
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** True when PostgreSQL can store the string as text or inside jsonb. */
export function isStorableText(text: string): boolean {
  return !unstorable.test(text);
}

export interface UnstorableJsonText {
  /** Path from the walked value to the offending key or string value. */
  path: PropertyKey[];
  /** The object key itself is unstorable, not the value under it. */
  inKey: boolean;
}

interface QueuedNode {
  value: unknown;
  /** Index of the parent in the queue and the key or index under it; the root has neither. */
  parent?: number;
  segment?: PropertyKey;
}

/** Rebuilds a node's path from parent links, so the walk keeps one small record per node, not a path. */
function pathOf(queue: readonly QueuedNode[], index: number): PropertyKey[] {
  const reversed: PropertyKey[] = [];
  let node = queue[index];
  while (node?.segment !== undefined) {
    reversed.push(node.segment);
    node = node.parent === undefined ? undefined : queue[node.parent];
  }
  return reversed.reverse();
}

/**
 * The first key or string value (breadth-first) PostgreSQL could not store, anywhere in a parsed JSON
 * value. Walks with a queue rather than recursion, so a deeply nested body cannot overflow the stack;
 * the body size limit bounds the work.
 */
export function findUnstorableJsonText(value: unknown): UnstorableJsonText | undefined {
  const queue: QueuedNode[] = [{ value }];
  for (let index = 0; index < queue.length; index++) {
    const node = queue[index];
    if (node === undefined) break;
    if (typeof node.value === 'string') {
      if (!isStorableText(node.value)) return { path: pathOf(queue, index), inKey: false };
    } else if (Array.isArray(node.value)) {
      node.value.forEach((element: unknown, position) => {
        queue.push({ value: element, parent: index, segment: position });
      });
    } else if (typeof node.value === 'object' && node.value !== null) {
      for (const [key, child] of Object.entries(node.value)) {
        if (!isStorableText(key)) return { path: [...pathOf(queue, index), key], inKey: true };
        queue.push({ value: child, parent: index, segment: key });
      }
    }
  }
  return undefined;
}
