/**
 * Slugs name portal objects in browser paths (`browser/path/a/b/c`). Pure, so the projector and the API
 * derive the same slug from the same title.
 */

/** At most this many UTF-16 code units, hence at most this many code points too (what PostgreSQL counts). */
export const MAX_SLUG_LENGTH = 80;

/** The slug of a title with no letter or digit at all (emoji only, punctuation only, `..`). */
export const FALLBACK_SLUG = 'untitled';

/**
 * A word starts with a letter or digit and keeps the marks that follow, so scripts whose vowels are marks
 * (Devanagari, Thai, Arabic harakat) stay intact. Everything else — spaces, punctuation, `.`, `/`, emoji —
 * separates words, so a slug can never be `.`, `..` or contain `/`.
 */
const wordPattern = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const markPattern = /^\p{M}$/u;
/** Accents on these bases are dropped (`é` → `e`); on any other script they are part of the letter. */
const foldedBasePattern = /^[\p{Script=Latin}\p{Script=Common}]$/u;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * `Café Ünïcode` → `cafe-unicode`, `地理データ・カタログ` → `地理データ-カタログ`, `🌍` → `untitled`.
 * Lowercase; compatibility forms folded (NFKD: full-width `Ａ` → `a`, `ﬁ` → `fi`); Latin accents dropped;
 * other scripts kept as written (recomposed to NFC); any run of other characters becomes one `-`;
 * at most `MAX_SLUG_LENGTH`, cut between user-perceived characters and never ending in `-`.
 */
export function slugify(title: string): string {
  return asciiOnly.test(title) ? asciiSlug(title) : slugifyAnyScript(title);
}

/**
 * Most titles are ASCII, where normalizing and folding marks leave the text as it is and every character
 * of the slug is a grapheme of its own: the slug is the lowercased runs of letters and digits. A replay
 * slugs every title of the history, and this is four to seven times faster than the general path
 * (0.8–1.8 µs a title against 5.6–11, in two runs).
 */
const asciiOnly = /^\p{ASCII}*$/u;
const asciiWordPattern = /[a-z0-9]+/g;

function asciiSlug(title: string): string {
  const words = title.toLowerCase().match(asciiWordPattern) ?? [];
  return truncateSlug(words.join('-'), MAX_SLUG_LENGTH) || FALLBACK_SLUG;
}

/** `slugify` for a title in any script (exported so the ASCII shortcut can be checked against it). */
export function slugifyAnyScript(title: string): string {
  const folded = dropLatinMarks(title.normalize('NFKD').toLowerCase()).normalize('NFC');
  const words = folded.match(wordPattern) ?? [];
  return truncateSlug(words.join('-'), MAX_SLUG_LENGTH) || FALLBACK_SLUG;
}

/**
 * The `n`-th candidate for a slug among siblings: `base` for 1, then `base-2`, `base-3`…, the base cut
 * short when needed so the candidate stays within `MAX_SLUG_LENGTH`. `base` is a `slugify` result.
 */
export function slugCandidate(base: string, n: number): string {
  if (!Number.isSafeInteger(n) || n < 1)
    throw new RangeError(`slug candidate number must be 1 or more, got ${n}`);
  if (n === 1) return base;
  const suffix = `-${n}`;
  return (truncateSlug(base, MAX_SLUG_LENGTH - suffix.length) || FALLBACK_SLUG) + suffix;
}

/**
 * The first candidate (`base`, `base-2`, …) that `taken` refuses. Ends because siblings are finite:
 * at most one more try than there are taken slugs.
 */
export function uniqueSlug(base: string, taken: (candidate: string) => boolean): string {
  for (let n = 1; ; n++) {
    const candidate = slugCandidate(base, n);
    if (!taken(candidate)) return candidate;
  }
}

function dropLatinMarks(text: string): string {
  let result = '';
  let baseIsFolded = true;
  for (const char of text) {
    if (markPattern.test(char)) {
      if (!baseIsFolded) result += char;
      continue;
    }
    baseIsFolded = foldedBasePattern.test(char);
    result += char;
  }
  return result;
}

function truncateSlug(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  let result = '';
  for (const { segment } of graphemes.segment(slug)) {
    if (result.length + segment.length > max) break;
    result += segment;
  }
  return result.replace(/-+$/u, '');
}
