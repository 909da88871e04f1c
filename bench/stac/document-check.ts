import type { ClientBody } from './stac-options.js';

/**
 * Whether an HTTP body is a JSON document of type `type`: parsed whole (`json`), or, read as text, by the
 * member the API writes first (`{"type":…`: item-collection.ts writes a page's text so, and
 * JSON.stringify keeps the order of the objects it builds with `type` first) and the closing brace.
 */
export function isDocumentOf(body: string, type: string, clientBody: ClientBody): boolean {
  if (clientBody === 'json') return (JSON.parse(body) as { type?: unknown }).type === type;
  return body.startsWith(`{"type":${JSON.stringify(type)},`) && body.endsWith('}');
}
