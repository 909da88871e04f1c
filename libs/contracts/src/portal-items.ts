import { z } from 'zod';
import {
  idSchema,
  listQuerySchema,
  pageSchema,
  recursiveFlagSchema,
  revisionSchema,
  timestampSchema,
  type Page,
} from './common.js';
import { bboxSchema, collectionExtentRecordSchema, collectionExtentSchema } from './extent.js';
import { hrefAssetsPatchSchema } from './href-assets.js';
import { itemMetadataPatchShape, checkItemMetadata } from './item-metadata.js';
import { licenseSchema, keywordsSchema } from './collections.js';
import { linksSchema, portalItemLinkSchema } from './link.js';
import { expected, strictObject, uuid } from './messages.js';
import { descriptionSchema, portalItemStatuses, portalKinds, titleSchema } from './portal-fields.js';

export const portalKindSchema = z.enum(portalKinds, { error: expected(`one of ${portalKinds.join(', ')}`) });
export type PortalKind = z.infer<typeof portalKindSchema>;

export const portalItemStatusSchema = z.enum(portalItemStatuses);
export type PortalItemStatus = z.infer<typeof portalItemStatusSchema>;

/** The contract leaves bbox's inner shape open; we answer [west, south, east, north], or null when unknown. */
const recordBboxSchema = bboxSchema.nullable();

export const portalItemSummarySchema = z.looseObject({
  id: idSchema,
  bbox: recordBboxSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  status: portalItemStatusSchema,
  kind: portalKindSchema,
});
export type PortalItemSummary = z.infer<typeof portalItemSummarySchema>;

export const assetSchema = z.looseObject({
  id: idSchema,
  key: z.string().meta({
    description: 'Object key in the bucket (uploaded file), or the asset key (registered by href).',
  }),
  href: z.string().meta({
    description:
      'Uploaded file: download URL (redirects to a short-lived presigned URL). Registered by href: the href as given.',
  }),
  source: z.enum(['upload', 'href']).exactOptional().meta({
    description:
      '`upload`: a file uploaded through the portal; `href`: registered by href, with its STAC `asset` object as sent.',
  }),
});
export type Asset = z.infer<typeof assetSchema>;

/**
 * `GET /api/v1/portal/items/{id}` for any kind. The contract allows fields beyond its own, so the
 * record is open: collections also carry license, keywords and extent.
 */
export const portalItemRecordSchema = z.looseObject({
  id: idSchema,
  kind: portalKindSchema,
  status: portalItemStatusSchema,
  statusMessage: z.string().nullable().exactOptional().meta({ description: 'Why an upload failed.' }),
  title: z.string(),
  description: z.string().nullable(),
  parentId: idSchema.nullable(),
  slug: z.string(),
  revision: revisionSchema,
  bbox: recordBboxSchema,
  tags: z.array(z.string()),
  links: z.array(portalItemLinkSchema),
  linksPortalItems: z
    .array(portalItemSummarySchema)
    .meta({ description: 'The portal objects that `links` point to and the caller may see.' }),
  assets: z.array(assetSchema),
  license: z.string().exactOptional(),
  keywords: z.array(z.string()).exactOptional(),
  extent: collectionExtentRecordSchema.exactOptional(),
  stacId: z.string().exactOptional().meta({
    description: 'The id a STAC client gave the item or collection, when not a UUID: its STAC id and path.',
  }),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type PortalItemRecord = z.infer<typeof portalItemRecordSchema>;

export const portalItemPageSchema = pageSchema(portalItemRecordSchema);
export type PortalItemPage = Page<PortalItemRecord>;

export const portalItemListQuerySchema = listQuerySchema.extend({
  kind: portalKindSchema.exactOptional().meta({ description: 'Only objects of this kind.' }),
  parentId: idSchema.exactOptional().meta({ description: 'Only direct children of this object.' }),
  status: z
    .enum(portalItemStatuses, { error: expected(`one of ${portalItemStatuses.join(', ')}`) })
    .exactOptional()
    .meta({ description: 'Only objects in this status.' }),
});
export type PortalItemListQuery = z.infer<typeof portalItemListQuerySchema>;

const updatableFields = [
  'title',
  'description',
  'links',
  'license',
  'keywords',
  'extent',
  'assets',
  ...(Object.keys(itemMetadataPatchShape) as (keyof typeof itemMetadataPatchShape)[]),
] as const;

/** `PATCH /api/v1/portal/items/{id}`: which fields apply depends on the kind (the domain decides). */
export const updatePortalItemBodySchema = strictObject(
  {
    title: titleSchema.exactOptional(),
    description: descriptionSchema.exactOptional(),
    links: linksSchema.exactOptional(),
    license: licenseSchema.exactOptional(),
    keywords: keywordsSchema.exactOptional(),
    extent: collectionExtentSchema
      .nullable()
      .exactOptional()
      .meta({ description: 'null returns a collection to the extent computed from its items.' }),
    assets: hrefAssetsPatchSchema.exactOptional(),
    ...itemMetadataPatchShape,
  },
  'a JSON object (the request body)',
)
  .refine((body) => updatableFields.some((field) => field in body), {
    error: `request body must change at least one of: ${updatableFields.join(', ')}`,
  })
  // An item's time is given as a whole, so the create's rules between its fields hold for the patch.
  .superRefine(checkItemMetadata)
  // The refinement is invisible to JSON Schema; minProperties says the same with strict keys.
  .meta({ minProperties: 1, description: 'At least one field; omitted fields keep their value.' });
export type UpdatePortalItemBody = z.infer<typeof updatePortalItemBodySchema>;

export const movePortalItemBodySchema = strictObject(
  {
    parentId: uuid()
      .nullable()
      .meta({ description: 'The new parent; null moves the object to the root level.' }),
  },
  'a JSON object (the request body)',
);
export type MovePortalItemBody = z.infer<typeof movePortalItemBodySchema>;

export const deletePortalItemQuerySchema = z.object({ recursive: recursiveFlagSchema });
export type DeletePortalItemQuery = z.infer<typeof deletePortalItemQuerySchema>;
