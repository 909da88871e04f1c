import { z } from 'zod';
import { idSchema, listQuerySchema, pageSchema, timestampSchema, type Page } from './common.js';
import { kindFilterSchema, nodeSortSchema, sortOrderSchema, statusFilterSchema } from './browser.js';
import { boundedText, expected } from './messages.js';
import { parentIdSchema, portalItemStatuses, portalKinds } from './portal-fields.js';
import { portalItemStatusSchema, portalKindSchema } from './portal-items.js';
import { checkSearchBoxText } from './search-box.js';

/** One object of the flat inventory. */
export const inventoryEntrySchema = z.object({
  id: idSchema,
  kind: portalKindSchema,
  status: portalItemStatusSchema,
  title: z.string(),
  description: z.string().nullable(),
  slug: z.string(),
  parentId: idSchema.nullable(),
  depth: z.int().min(1),
  childCount: z.int().min(0),
  assetBytes: z
    .int()
    .min(0)
    .meta({ description: "Bytes of the object's assets (only items carry assets; 0 for containers)." }),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type InventoryEntry = z.infer<typeof inventoryEntrySchema>;

const count = z.int().min(0);
const countsOf = <const Keys extends readonly string[]>(keys: Keys) =>
  z.object(Object.fromEntries(keys.map((key) => [key, count])) as Record<Keys[number], typeof count>);

export const inventoryTotalsSchema = z
  .object({
    objects: count.meta({ description: 'Objects matching the filters, on every page together.' }),
    byKind: countsOf(portalKinds).meta({
      description: 'The same objects per kind (every kind, 0 when none).',
    }),
    byStatus: countsOf(portalItemStatuses).meta({
      description: 'The same objects per status (every status, 0 when none).',
    }),
    assetBytes: z
      .int()
      .min(0)
      .meta({ description: 'Bytes of the assets of the matching items (exact up to 2^53 − 1, about 9 PB).' }),
  })
  .meta({ description: 'Totals of everything the filters match, not only of this page.' });
export type InventoryTotals = z.infer<typeof inventoryTotalsSchema>;

export const inventoryPageSchema = pageSchema(inventoryEntrySchema).extend({ totals: inventoryTotalsSchema });
export type InventoryPage = Page<InventoryEntry> & { totals: InventoryTotals };

/** Invented bound: the longest `q` (search box text, not documents). */
export const INVENTORY_QUERY_MAX = 200;

/**
 * `bbox=west,south,east,north`: the STAC search's rule and words (`checkSearchBoxText`), so one bad box
 * gets one message wherever it is sent.
 */
const inventoryBboxSchema = z
  .string({ error: expected('west,south,east,north') })
  .transform((text, context) => {
    const checked = checkSearchBoxText(text);
    if ('box' in checked) return checked.box;
    context.addIssue({ code: 'custom', message: checked.problem, input: text });
    return z.NEVER;
  })
  .meta({
    description:
      'Only objects whose footprint meets this box: west,south,east,north in degrees (WGS84; or 6 numbers with min and max height), west > east crossing the antimeridian. An item’s footprint is its geometry, else its bbox; a collection’s is its extent as its record shows it. Catalogs and items without either have none and are left out.',
  });

export const inventoryQuerySchema = listQuerySchema.extend({
  sort: nodeSortSchema.default('title'),
  order: sortOrderSchema,
  kind: kindFilterSchema.exactOptional(),
  status: statusFilterSchema.exactOptional(),
  parentId: parentIdSchema
    .exactOptional()
    .meta({ description: 'Only the objects directly inside this one.' }),
  q: boundedText(1, INVENTORY_QUERY_MAX)
    .exactOptional()
    .meta({ description: 'Case-insensitive text contained in the title or the description.' }),
  bbox: inventoryBboxSchema.exactOptional(),
});
export type InventoryQuery = z.infer<typeof inventoryQuerySchema>;
