import { z } from 'zod';
import { idSchema, pageSchema, timestampSchema, type Page } from './common.js';
import { portalItemStatusSchema, portalKindSchema } from './portal-items.js';

/** One node of the portal tree as the browser shows it (the contract leaves the shape open). */
export const browserNodeSchema = z.object({
  id: idSchema,
  kind: portalKindSchema,
  status: portalItemStatusSchema,
  title: z.string(),
  slug: z.string(),
  path: z.string().meta({ description: 'Slash-separated slugs from the root level down to this node.' }),
  parentId: idSchema.nullable(),
  depth: z.int().min(1),
  childCount: z.int().min(0),
  updatedAt: timestampSchema,
});
export type BrowserNode = z.infer<typeof browserNodeSchema>;

/** Root-level nodes, or the children of a node, in pages. */
export const browserNodePageSchema = pageSchema(browserNodeSchema);
export type BrowserNodePage = Page<BrowserNode>;

export const breadcrumbsSchema = z.object({
  items: z.array(browserNodeSchema).meta({ description: 'From the root level down to the node itself.' }),
});
export type Breadcrumbs = z.infer<typeof breadcrumbsSchema>;
