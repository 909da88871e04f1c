import { z } from 'zod';
import { idSchema, listQuerySchema, pageSchema, timestampSchema, type Page } from './common.js';
import { expected } from './messages.js';
import { portalItemStatuses, portalKinds } from './portal-fields.js';
import { portalItemStatusSchema, portalKindSchema } from './portal-items.js';

/** One node of the portal tree as a tree explorer renders it (the contract leaves the shape open). */
export const browserNodeSchema = z.object({
  id: idSchema,
  kind: portalKindSchema,
  title: z.string(),
  slug: z.string().meta({ description: 'Unique among the live siblings; one segment of `path`.' }),
  status: portalItemStatusSchema,
  childCount: z.int().min(0).meta({ description: 'Live children (0 for an item).' }),
  hasChildren: z.boolean().meta({ description: '`childCount > 0`: whether to draw an expander.' }),
  updatedAt: timestampSchema,
  createdAt: timestampSchema,
  parentId: idSchema.nullable(),
  depth: z.int().min(1).meta({ description: '1 at the root level.' }),
  path: z.string().nullable().meta({
    description:
      'Slash-separated slugs from the root level down to this node: the `browser/path` of it. `null` when an ancestor is not visible to the caller.',
  }),
});
export type BrowserNode = z.infer<typeof browserNodeSchema>;

/** Root-level nodes in pages. */
export const browserNodePageSchema = pageSchema(browserNodeSchema);
export type BrowserNodePage = Page<BrowserNode>;

/** A page of a node's children together with the node itself, so one request renders the view. */
export const browserChildrenSchema = pageSchema(browserNodeSchema).extend({
  node: browserNodeSchema.meta({ description: 'The node whose children `items` are.' }),
});
export type BrowserChildren = BrowserNodePage & { node: BrowserNode };

export const breadcrumbSchema = z.object({
  id: idSchema,
  kind: portalKindSchema,
  title: z.string(),
  slug: z.string(),
  path: z.string().nullable().meta({
    description:
      'Slash-separated slugs from the root level down to this crumb; `null` below an ancestor the caller cannot see (left out of the list).',
  }),
});
export type Breadcrumb = z.infer<typeof breadcrumbSchema>;

export const breadcrumbsSchema = z.object({
  items: z.array(breadcrumbSchema).meta({ description: 'From the root level down to the node itself.' }),
});
export type Breadcrumbs = z.infer<typeof breadcrumbsSchema>;

export const nodeSorts = ['kind', 'title', 'createdAt', 'updatedAt'] as const;
export type NodeSort = (typeof nodeSorts)[number];
export const sortOrders = ['asc', 'desc'] as const;
export type SortOrder = (typeof sortOrders)[number];

export const nodeSortSchema = z
  .enum(nodeSorts, { error: expected(`one of ${nodeSorts.join(', ')}`) })
  .meta({ description: 'Sort key; `kind` sorts by kind, then title. The id breaks ties.' });
export const sortOrderSchema = z
  .enum(sortOrders, { error: expected('"asc" or "desc"') })
  .default('asc')
  .meta({ description: 'Sort direction.' });

/**
 * A filter on some values of a closed set: comma-separated (`kind=catalog,collection`), repeated
 * (`kind=catalog&kind=collection`), or both. Absent means no filter.
 */
export function oneOrMoreOf<const Values extends readonly [string, ...string[]]>(values: Values) {
  const member = z.enum(values, { error: expected(`one of ${values.join(', ')}`) });
  return z
    .union([z.string(), z.array(z.string())], { error: expected(`one or more of ${values.join(', ')}`) })
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(','))
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    )
    .pipe(z.array(member).min(1, { error: `must name one or more of ${values.join(', ')}` }))
    .transform((list) => [...new Set(list)]);
}

export const kindFilterSchema = oneOrMoreOf(portalKinds).meta({
  description: 'Only these kinds: comma-separated or repeated, e.g. `catalog,collection`.',
});
export const statusFilterSchema = oneOrMoreOf(portalItemStatuses).meta({
  description: 'Only these statuses: comma-separated or repeated, e.g. `ready,processing`.',
});

/** `browser/root`: root-level nodes sorted by kind, then title. */
export const browserRootQuerySchema = listQuerySchema;
export type BrowserRootQuery = z.infer<typeof browserRootQuerySchema>;

/** `nodes/{nodeId}/children`: sortable and filterable; a cursor only continues the order it came from. */
export const browserChildrenQuerySchema = listQuerySchema.extend({
  sort: nodeSortSchema.default('kind'),
  order: sortOrderSchema,
  kind: kindFilterSchema.exactOptional(),
  status: statusFilterSchema.exactOptional(),
});
export type BrowserChildrenQuery = z.infer<typeof browserChildrenQuerySchema>;

/** `browser/path/{path}`: the first page of the node's children, shaped like the children query. */
export const browserPathQuerySchema = browserChildrenQuerySchema.omit({ cursor: true });
export type BrowserPathQuery = z.infer<typeof browserPathQuerySchema>;
