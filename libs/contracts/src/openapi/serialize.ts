import type { JsonObject } from './route.js';

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Keys sorted at every level, so the file does not change when code builds the document in another
 * order. Two exceptions keep the document readable: the top level stays in its canonical order
 * (openapi, info, …), and a schema's `properties` keep the field order of the zod schema.
 */
function canonical(value: unknown, keepKeyOrder: boolean): unknown {
  if (Array.isArray(value)) return value.map((element) => canonical(element, false));
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (!keepKeyOrder) keys.sort();
  return Object.fromEntries(
    keys.map((key) => [key, canonical(value[key], !keepKeyOrder && key === 'properties')]),
  );
}

/** The committed text of `openapi.json`: two-space indentation and a trailing newline. */
export function serializeOpenApiDocument(document: JsonObject): string {
  const ordered = Object.fromEntries(
    Object.entries(document).map(([key, value]) => [key, canonical(value, false)]),
  );
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
