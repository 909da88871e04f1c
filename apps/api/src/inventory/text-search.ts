import type { QueryParams } from '@portal/read-model-core';

/** `LIKE` treats these as wildcards; the user's text is matched literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * `q`: the text anywhere in the title or the description, ignoring case. The first condition is the
 * expression of the trigram index `portal_objects_text_trigrams` (reader-indexes.sql), which finds the
 * candidates; the second keeps a match from straddling the title and the description.
 */
export function containsText(alias: string, text: string, params: QueryParams): string {
  const pattern = params.add(`%${likeLiteral(text)}%`, 'text');
  return `(${alias}.title || ' ' || COALESCE(${alias}.description, '')) ILIKE ${pattern}
          AND (${alias}.title ILIKE ${pattern} OR ${alias}.description ILIKE ${pattern})`;
}
