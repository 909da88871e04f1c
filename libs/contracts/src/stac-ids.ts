import { z } from 'zod';
import { expected, uuid } from './messages.js';

/** The longest id a STAC client may give an item; scene and file names are far shorter. */
export const MAX_STAC_ITEM_ID_LENGTH = 256;

/**
 * A name a STAC client gives an item or a collection (docs/stac.md, "Item ids", "Collection ids"). It is
 * one path segment of the object's URL, found again as it was written:
 * - no `/`, and not `.` or `..` (a URL resolves them away, even percent-encoded);
 * - no control character (C0, DEL, C1) and no lone surrogate (no UTF-8 for it; it cannot be encoded
 *   into a URL);
 * - no space at either end (lists of ids are trimmed).
 * Its length counts UTF-16 code units, as JSON and JavaScript do.
 */
const stacNameText = z
  .string({ error: expected('a string') })
  .min(1, { error: 'must not be empty' })
  .max(MAX_STAC_ITEM_ID_LENGTH, { error: `must be at most ${MAX_STAC_ITEM_ID_LENGTH} characters` })
  // Escapes rather than `\p{Cc}`: the pattern goes into the OpenAPI document, whose readers do not all
  // know Unicode property classes. With the `u` flag a surrogate pair is one character, so the
  // surrogate range refuses lone halves only, as a JSON Schema validator reading code points does.
  // eslint-disable-next-line no-control-regex -- the control characters are what it refuses
  .regex(/^[^/\u0000-\u001f\u007f-\u009f\ud800-\udfff]*$/u, {
    error: 'must hold no /, no control character and no lone surrogate',
  })
  .refine((name) => name !== '.' && name !== '..', { error: 'must not be . or ..' })
  .refine((name) => name.trim() === name, { error: 'must not start or end with a space' });

/** An item's id as a STAC client gives it: a UUID (kept as the portal id) or a name of its own. */
export const stacItemIdSchema = stacNameText.meta({
  description:
    "The item's id: a UUID, or a name of the client's own (one path segment, at most 256 characters), unique in its collection; left out, the portal gives a UUID.",
});

/** A collection's id as a STAC client gives it: a UUID (kept as the portal id) or a name of its own. */
export const stacCollectionIdSchema = stacNameText.meta({
  description:
    "The collection's id: a UUID, or a name of the client's own (one path segment, at most 256 characters), unique among the portal's collections; left out, the portal gives a UUID.",
});

/**
 * `stacId` of a portal item create: the STAC name alone. A UUID is refused: it would name the item
 * itself, which the portal API chooses.
 */
export const stacItemNameSchema = stacNameText
  .refine((name) => !uuid().safeParse(name).success, {
    error: 'must be a name, not a UUID: the portal gives the item its UUID',
  })
  .meta({
    description:
      'The item\'s STAC id, unique in its parent (docs/stac.md, "Item ids"): its `id` and path in the STAC API; the item\'s UUID is derived from it. One path segment, at most 256 characters, not a UUID.',
  });

/**
 * `stacId` of a portal collection create: the STAC name alone (a UUID is refused, as for items).
 */
export const stacCollectionNameSchema = stacNameText
  .refine((name) => !uuid().safeParse(name).success, {
    error: 'must be a name, not a UUID: the portal gives the collection its UUID',
  })
  .meta({
    description:
      "The collection's STAC id, unique among the portal's live collections (docs/stac.md, \"Collection ids\"): its `id` and path in the STAC API; the collection's UUID is derived from it. One path segment, at most 256 characters, not a UUID.",
  });

/** Whether a text can be a STAC id at all: anything else names no item or collection (a 404, no match). */
export function isStacId(text: string): boolean {
  return stacNameText.safeParse(text).success;
}
