import { z } from 'zod';
import { expected } from './messages.js';
import { stacItemSchema } from './stac.js';
import { stacCollectionIdSchema, stacItemIdSchema } from './stac-ids.js';

/**
 * The bodies of the STAC transaction extension (docs/stac.md, Transactions). Only their outline is
 * checked here; each item is then translated to a portal item create and checked as one (its geometry,
 * bbox, time, properties and assets by href), so both APIs accept and refuse the same items.
 */

/** Items one ItemCollection may create; a larger load belongs to the bulk API. */
export const MAX_TRANSACTION_ITEMS = 1000;

const stacInputLinkSchema = z.looseObject(
  {
    href: z.string({ error: expected('a string') }),
    rel: z.string({ error: expected('a string') }),
    type: z.string({ error: expected('a string') }).exactOptional(),
    title: z.string({ error: expected('a string') }).exactOptional(),
  },
  { error: expected('a link object with href and rel') },
);

export const stacItemInputSchema = z
  .looseObject(
    {
      type: z.literal('Feature', { error: expected('"Feature"') }),
      stac_version: z.string({ error: expected('a string') }).exactOptional(),
      stac_extensions: z.array(z.string(), { error: expected('an array of strings') }).exactOptional(),
      id: stacItemIdSchema.exactOptional(),
      collection: z
        .string({ error: expected('a string') })
        .exactOptional()
        .meta({ description: "The path's collection, if given." }),
      geometry: z.unknown().meta({ description: 'GeoJSON geometry, or null.' }),
      bbox: z.unknown().exactOptional(),
      properties: z.record(z.string(), z.unknown(), { error: expected('a JSON object') }),
      links: z.array(stacInputLinkSchema, { error: expected('an array') }).exactOptional(),
      assets: z
        .record(z.string(), z.unknown(), { error: expected('a JSON object') })
        .exactOptional()
        .meta({ description: 'Assets registered by href, kept as sent.' }),
    },
    { error: expected('a STAC Item') },
  )
  .meta({ description: 'A STAC Item to add (the transaction extension).' });
export type StacItemInput = z.infer<typeof stacItemInputSchema>;

export const stacItemCollectionInputSchema = z
  .looseObject(
    {
      type: z.literal('FeatureCollection', { error: expected('"FeatureCollection"') }),
      features: z
        .array(stacItemInputSchema, { error: expected('an array of STAC Items') })
        .max(MAX_TRANSACTION_ITEMS, { error: `must have at most ${MAX_TRANSACTION_ITEMS} items` }),
    },
    { error: expected('a STAC ItemCollection') },
  )
  .meta({ description: 'STAC Items to add at once (the transaction extension).' });

/** `POST /collections/{id}/items`: one Item, or an ItemCollection of them. */
export const stacItemsInputSchema = z.union([stacItemInputSchema, stacItemCollectionInputSchema], {
  error: expected('a STAC Item or ItemCollection'),
});
export type StacItemsInput = z.infer<typeof stacItemsInputSchema>;

/** `PATCH /collections/{id}/items/{itemId}`: a JSON merge patch (RFC 7386) of the Item. */
export const stacItemPatchSchema = z
  .record(z.string(), z.unknown())
  .meta({ description: 'A JSON merge patch of the Item: objects merge, null removes a key.' });

export const stacCollectionInputSchema = z
  .looseObject(
    {
      type: z.literal('Collection', { error: expected('"Collection"') }),
      id: stacCollectionIdSchema.exactOptional(),
      title: z.string({ error: expected('a string') }).exactOptional(),
      description: z.string({ error: expected('a string') }),
      license: z.string({ error: expected('a string') }).exactOptional(),
      keywords: z.unknown().exactOptional(),
      extent: z.unknown().exactOptional(),
      links: z.array(stacInputLinkSchema, { error: expected('an array') }).exactOptional(),
    },
    { error: expected('a STAC Collection') },
  )
  .meta({ description: 'A STAC Collection to add or replace (the collection transaction extension).' });
export type StacCollectionInput = z.infer<typeof stacCollectionInputSchema>;

/** `PATCH /collections/{id}`: a JSON merge patch (RFC 7386) of the Collection. */
export const stacCollectionPatchSchema = z
  .record(z.string(), z.unknown())
  .meta({ description: 'A JSON merge patch of the Collection: objects merge, null removes a key.' });

/** The answer to an ItemCollection added: the ids of its items, in order. */
export const stacItemsAddedSchema = z.object({ ids: z.array(z.string()) });

/** A STAC write recorded but not projected yet (202): the STAC ids of what it changed. */
export const stacWriteAcceptedSchema = z.object({
  id: z.string().meta({ description: "The Item's or the Collection's STAC id." }),
  collection: z.string().optional().meta({ description: "An Item's collection, by its STAC id." }),
});

/** The answer to `POST /collections/{id}/items`: the Item added, or the ids of an ItemCollection's. */
export const stacItemsAnswerSchema = z.union([stacItemSchema, stacItemsAddedSchema]);
