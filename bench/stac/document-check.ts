import type { ClientBody } from './stac-options.js';

/**
 * Whether an HTTP body (the pieces it was read in) is a JSON document of type `type`: joined and parsed
 * whole (`json`), or, read as text, by the member the API writes first (`{"type":…`: item-collection.ts
 * writes a page's text so, and JSON.stringify keeps the order of the objects it builds with `type` first)
 * and the closing brace.
 */
export function isDocumentOf(parts: readonly string[], type: string, clientBody: ClientBody): boolean {
  if (clientBody === 'json') return (JSON.parse(parts.join('')) as { type?: unknown }).type === type;
  const opening = `{"type":${JSON.stringify(type)},`;
  const last = parts.findLast((part) => part !== '');
  return headOf(parts, opening.length).startsWith(opening) && (last?.endsWith('}') ?? false);
}

/** At least the first `length` characters of the text (all of it when shorter), joining only what it needs. */
function headOf(parts: readonly string[], length: number): string {
  let head = '';
  for (const part of parts) {
    if (head.length >= length) break;
    head += part;
  }
  return head;
}
