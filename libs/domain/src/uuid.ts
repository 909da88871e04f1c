const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value is a UUID in its text form (any version, any case): ids of objects, users, events and
 * sessions. Checked wherever text from outside (a cursor, a token claim, metadata) is about to be used
 * as one, so PostgreSQL never answers a malformed id with an error.
 */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
