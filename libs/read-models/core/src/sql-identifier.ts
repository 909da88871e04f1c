/**
 * Schema names reach SQL text (DDL, `search_path`, `ALTER SCHEMA`), where parameters cannot go.
 * Only plain lower-case identifiers pass, so quoting can never be escaped.
 */
const plainIdentifier = /^[a-z_][a-z0-9_]{0,62}$/;

export function quoteIdentifier(name: string): string {
  if (!plainIdentifier.test(name)) {
    throw new Error(
      `invalid SQL identifier ${JSON.stringify(name)}: use lower-case letters, digits and _ (at most 63)`,
    );
  }
  return `"${name}"`;
}
