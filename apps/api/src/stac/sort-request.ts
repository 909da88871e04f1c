import { badParameter } from './stac-problem.js';

/**
 * The sort extension's `sortby` (docs/stac.md, "Sort"), as the client gave it: field names in order,
 * each ascending or descending. Which names sort, and how, is `item-sort.ts`'s business.
 */
export type SortDirection = 'asc' | 'desc';

export interface SortTerm {
  readonly field: string;
  readonly direction: SortDirection;
}

/** Bounds on one `sortby`: a real sort names a few fields; a longer one is a mistake or an attack. */
export const MAX_SORT_TERMS = 8;
export const MAX_SORT_FIELD_LENGTH = 256;

const invalid = (message: string) => badParameter('sortby', message, 'INVALID_SORTBY');

function checked(terms: readonly SortTerm[]): readonly SortTerm[] {
  if (terms.length === 0) throw invalid('must name at least one field');
  if (terms.length > MAX_SORT_TERMS) throw invalid(`must name at most ${MAX_SORT_TERMS} fields`);
  for (const { field } of terms) {
    if (field === '') throw invalid('a field name must not be empty');
    if (field.length > MAX_SORT_FIELD_LENGTH) {
      throw invalid(`a field name must be at most ${MAX_SORT_FIELD_LENGTH} characters`);
    }
    if (field.includes('\u0000')) throw invalid('a field name must not hold a NUL character');
  }
  return terms;
}

/**
 * The GET form: `+a,-b,c` (no sign is ascending). A `+` left unescaped in a URL arrives as a space, so a
 * leading space reads as `+` too, as the extension notes.
 */
export function parseSortbyText(text: string): readonly SortTerm[] {
  return checked(
    text.split(',').map((part) => {
      const descending = part.trimStart().startsWith('-');
      const field = part.trimStart().replace(/^[+-]/, '').trim();
      return { field, direction: descending ? 'desc' : 'asc' };
    }),
  );
}

/** The POST form: `[{field, direction}]`; a string is read as the GET form (a client's shortcut). */
export function parseSortbyBody(
  value: string | readonly { readonly field: string; readonly direction: SortDirection }[],
): readonly SortTerm[] {
  if (typeof value === 'string') return parseSortbyText(value);
  return checked(value.map(({ field, direction }) => ({ field: field.trim(), direction })));
}
