// PostgreSQL's COPY text format (tab-separated, `\N` for NULL, backslash escapes), written by hand so a
// row costs a string join and no parameter conversion. Values are given as the text PostgreSQL parses
// for the column, the same text the SQL path sends as a parameter, so both store the same values.

/** A column value: text as PostgreSQL would parse it, or `null`. */
export type CopyValue = string | null;

/** Escapes one value for COPY's text format. */
export function copyField(value: CopyValue): string {
  if (value === null) return '\\N';
  // Fast path: most values (ids, slugs, timestamps) hold nothing to escape.
  if (!/[\\\t\n\r]/.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (character) => {
    switch (character) {
      case '\\':
        return '\\\\';
      case '\t':
        return '\\t';
      case '\n':
        return '\\n';
      default:
        return '\\r';
    }
  });
}

/** One row: its fields, then a newline. */
export function copyLine(values: readonly CopyValue[]): string {
  return `${values.map(copyField).join('\t')}\n`;
}

/** An array literal of text-like elements (uuid, text), each quoted: `{"a","b"}`. */
export function textArray(elements: readonly string[]): string {
  if (elements.length === 0) return '{}';
  return `{${elements.map((element) => `"${element.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/**
 * An array literal of numbers as node-postgres sends a `number[]` parameter (`String(n)`), with
 * `NULL` for missing elements.
 */
export function numberArray(elements: readonly (number | null)[]): string {
  return `{${elements.map((element) => (element === null ? 'NULL' : String(element))).join(',')}}`;
}
