import { boundedText, uuid } from './messages.js';

/** The contract bounds these for collections; catalogs and items use the same bounds (our choice). */
export const TITLE_MAX = 140;
export const DESCRIPTION_MAX = 1000;

/**
 * Characters that show nothing by themselves: white space, controls, format characters (zero-width
 * space and joiners, bidi marks, the byte-order mark), combining marks without a base, and the Hangul
 * and braille fillers that render blank. A title of nothing else would list as an empty row.
 */
const INVISIBLE_ONLY = /^[\s\p{Z}\p{Cc}\p{Cf}\p{M}\u115F\u1160\u3164\uFFA0\u2800]*$/u;

export const VISIBLE_TITLE_MESSAGE = 'must contain a visible character, not only spaces or invisible ones';

/** True when the text has at least one character a reader can see. */
export function hasVisibleCharacter(text: string): boolean {
  return !INVISIBLE_ONLY.test(text);
}

// The empty title is the minimum length's to report, once.
export const titleSchema = boundedText(1, TITLE_MAX).refine(
  (title) => title.length === 0 || hasVisibleCharacter(title),
  { error: VISIBLE_TITLE_MESSAGE },
);
export const descriptionSchema = boundedText(1, DESCRIPTION_MAX);
export const parentIdSchema = uuid().meta({ description: 'Id of the parent; absent for the root level.' });

/** Portal object kinds and item statuses. */
export const portalKinds = ['catalog', 'collection', 'item'] as const;
export const portalItemStatuses = [
  'uploading',
  'processing',
  'ready',
  'failed',
  'aborted',
  'expired',
] as const;
