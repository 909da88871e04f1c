// PostgreSQL's COPY text format (tab-separated, `\N` for NULL, backslash escapes), written by hand so a
// row costs a string join and no parameter conversion. Values are given as the text PostgreSQL parses
// for the column, the same text the SQL path sends as a parameter, so both store the same values.

/** A column value: text as PostgreSQL would parse it, or `null`. */
export type CopyValue = string | null;

const needsEscape = /[\\\t\n\r]/;

/**
 * Escapes one value for COPY's text format. A native pass per character that needs it rather than one
 * callback per match: JSON text holds a backslash for every quote or newline it escapes.
 */
export function copyField(value: CopyValue): string {
  if (value === null) return '\\N';
  // Fast path: most values (ids, slugs, timestamps) hold nothing to escape.
  if (!needsEscape.test(value)) return value;
  return value
    .replaceAll('\\', '\\\\')
    .replaceAll('\t', '\\t')
    .replaceAll('\n', '\\n')
    .replaceAll('\r', '\\r');
}

/** One row: its fields, then a newline. */
export function copyLine(values: readonly CopyValue[]): string {
  let line = '';
  for (let index = 0; index < values.length; index += 1) {
    if (index > 0) line += '\t';
    line += copyField(values[index] ?? null);
  }
  return `${line}\n`;
}

const needsArrayEscape = /[\\"]/;

/** An array literal of text-like elements (uuid, text), each quoted: `{"a","b"}`. */
export function textArray(elements: readonly string[]): string {
  if (elements.length === 0) return '{}';
  let text = '{';
  for (let index = 0; index < elements.length; index += 1) {
    const element = elements[index] as string;
    if (index > 0) text += ',';
    // Ids, the usual elements, hold nothing to escape.
    text += `"${needsArrayEscape.test(element) ? element.replaceAll('\\', '\\\\').replaceAll('"', '\\"') : element}"`;
  }
  return `${text}}`;
}

/**
 * An array literal of numbers as node-postgres sends a `number[]` parameter (`String(n)`), with
 * `NULL` for missing elements.
 */
export function numberArray(elements: readonly (number | null)[]): string {
  return `{${elements.map((element) => (element === null ? 'NULL' : String(element))).join(',')}}`;
}
