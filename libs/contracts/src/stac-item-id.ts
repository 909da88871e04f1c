import { z } from 'zod';
import { expected, uuid } from './messages.js';

/** The longest id a STAC client may give an item; scene and file names are far shorter. */
export const MAX_STAC_ITEM_ID_LENGTH = 256;

/**
 * An item's id as a STAC client gives it: a UUID (kept as the portal id) or a name of the client's own,
 * unique within its collection (docs/stac.md, "Item ids"). A name is one path segment of the item's URL:
 * no `/`, no control character.
 */
export const stacItemIdSchema = z
  .string({ error: expected('a string') })
  .min(1, { error: 'must not be empty' })
  .max(MAX_STAC_ITEM_ID_LENGTH, { error: `must be at most ${MAX_STAC_ITEM_ID_LENGTH} characters` })
  // eslint-disable-next-line no-control-regex -- the control characters are what it refuses
  .regex(/^[^/\u0000-\u001f\u007f]*$/u, { error: 'must hold no / and no control character' })
  .meta({
    description:
      "The item's id: a UUID, or a name of the client's own (one path segment, at most 256 characters), unique in its collection; left out, the portal gives a UUID.",
  });

/**
 * `stacId` of a portal item create: the STAC name alone. A UUID is refused: it would name the item
 * itself, which the portal API chooses.
 */
export const stacItemNameSchema = stacItemIdSchema
  .refine((name) => !uuid().safeParse(name).success, {
    error: 'must be a name, not a UUID: the portal gives the item its UUID',
  })
  .meta({
    description:
      'The item\'s STAC id, unique in its parent (docs/stac.md, "Item ids"): its `id` and path in the STAC API; the item\'s UUID is derived from it. One path segment, at most 256 characters, not a UUID.',
  });
