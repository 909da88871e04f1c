import { z } from 'zod';
import { createVisibilitySchema } from './access.js';
import { idSchema } from './common.js';
import { collectionExtentRecordSchema, collectionExtentSchema } from './extent.js';
import { collectionLinkSchema, linksSchema } from './link.js';
import { boundedArray, boundedText, strictObject } from './messages.js';
import { descriptionSchema, parentIdSchema, titleSchema } from './portal-fields.js';
import { stacCollectionNameSchema } from './stac-ids.js';

/** Invented bounds for the collection extensions (the contract shows no bounds for them). */
export const LICENSE_MAX = 140;
export const KEYWORD_MAX = 140;
export const MAX_KEYWORDS = 100;
/** What the domain applies when a create gives no license. */
export const DEFAULT_LICENSE = 'other';

export const licenseSchema = boundedText(1, LICENSE_MAX).meta({
  description: `License identifier; "${DEFAULT_LICENSE}" when not given on create.`,
});
export const keywordsSchema = boundedArray(boundedText(1, KEYWORD_MAX), {
  max: MAX_KEYWORDS,
  unit: 'keyword',
});

export const createCollectionBodySchema = strictObject(
  {
    title: titleSchema,
    description: descriptionSchema,
    parentId: parentIdSchema.exactOptional(),
    links: linksSchema,
    license: licenseSchema.exactOptional(),
    keywords: keywordsSchema.exactOptional(),
    extent: collectionExtentSchema
      .exactOptional()
      .meta({ description: 'When absent, computed from the ready items below the collection.' }),
    visibility: createVisibilitySchema,
    stacId: stacCollectionNameSchema.exactOptional(),
  },
  'a JSON object (the request body)',
);
export type CreateCollectionBody = z.infer<typeof createCollectionBodySchema>;

/** `GET /api/v1/collections/{id}`: exactly the contract's collection record. */
export const collectionRecordSchema = z.object({
  id: idSchema,
  type: z.literal('collection'),
  title: z.string(),
  description: z.string(),
  license: z.string(),
  keywords: z.array(z.string()),
  extent: collectionExtentRecordSchema,
  links: z.array(collectionLinkSchema),
});
export type CollectionRecord = z.infer<typeof collectionRecordSchema>;
