import { z } from 'zod';
import { createVisibilitySchema } from './access.js';
import {
  idSchema,
  listQuerySchema,
  pageSchema,
  recursiveFlagSchema,
  revisionSchema,
  timestampSchema,
  type Page,
} from './common.js';
import { boundedArray, expected, strictObject, uuid } from './messages.js';
import { linkSchema, linksSchema } from './link.js';
import { descriptionSchema, parentIdSchema, titleSchema } from './portal-fields.js';

export const createCatalogBodySchema = strictObject(
  {
    title: titleSchema,
    description: descriptionSchema,
    parentId: parentIdSchema.exactOptional(),
    links: linksSchema,
    visibility: createVisibilitySchema,
  },
  'a JSON object (the request body)',
);
export type CreateCatalogBody = z.infer<typeof createCatalogBodySchema>;

export const catalogRecordSchema = z.object({
  id: idSchema,
  kind: z.literal('catalog'),
  title: z.string(),
  description: z.string(),
  parentId: idSchema.nullable(),
  slug: z.string().meta({ description: 'Unique among siblings; derived from the title.' }),
  depth: z.int().min(1).meta({ description: '1 at the root level.' }),
  childCount: z.int().min(0),
  links: z.array(linkSchema),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  revision: revisionSchema,
});
export type CatalogRecord = z.infer<typeof catalogRecordSchema>;

export const catalogPageSchema = pageSchema(catalogRecordSchema);
export type CatalogPage = Page<CatalogRecord>;

export const listCatalogsQuerySchema = listQuerySchema.extend({
  parentId: parentIdSchema
    .exactOptional()
    .meta({ description: 'Only the catalogs directly inside this one.' }),
});
export type ListCatalogsQuery = z.infer<typeof listCatalogsQuerySchema>;

/** Invented bound: ids per delete request. */
export const MAX_DELETE_IDS = 100;

const idList = z
  .union([z.string(), z.array(z.string())], { error: expected('a comma-separated list of UUIDs') })
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((part) => part.split(','))
      .map((id) => id.trim())
      .filter((id) => id !== ''),
  )
  .pipe(boundedArray(uuid(), { min: 1, max: MAX_DELETE_IDS, unit: 'id' }))
  .transform((ids) => [...new Set(ids)]);

/** `ids` may be comma-separated (`ids=a,b`), repeated (`ids=a&ids=b`), or both. */
export const deleteCatalogsQuerySchema = z.object({
  ids: idList.meta({ description: `1 to ${MAX_DELETE_IDS} catalog ids, comma-separated or repeated.` }),
  recursive: recursiveFlagSchema,
});
export type DeleteCatalogsQuery = z.infer<typeof deleteCatalogsQuerySchema>;
