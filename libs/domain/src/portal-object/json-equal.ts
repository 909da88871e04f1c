/**
 * Structural equality of JSON-shaped values: arrays in order, objects by their keys whatever their order
 * (a link's `linkJson` that comes back with its keys reordered has not changed). Keys holding `undefined`
 * count as absent, as they would after a JSON round trip through the event store.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((value, index) => jsonEqual(value, b[index]));
  }
  const left = definedEntries(a);
  const right = new Map(definedEntries(b));
  if (left.length !== right.size) return false;
  return left.every(([key, value]) => right.has(key) && jsonEqual(value, right.get(key)));
}

function definedEntries(value: object): [string, unknown][] {
  return Object.entries(value).filter(([, entry]) => entry !== undefined);
}
