/**
 * JSON text that is the same for every spelling of one parsed body: object keys sorted by code unit at
 * every depth (numeric-looking keys too), no whitespace. Array order is kept: it is part of the value.
 * So `{"a":1,"b":2}` and `{"b":2,"a":1}` are one request body for `Idempotency-Key`.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`);
    return `{${members.join(',')}}`;
  }
  // A parsed body holds no functions or symbols; `undefined` (no body) reads as null.
  return value === undefined ? 'null' : JSON.stringify(value);
}
