import { z } from 'zod';
import { expected, uuid } from './messages.js';

export const idSchema = uuid().meta({ description: 'Identifier of a portal object (UUID-shaped).' });
export type Id = z.infer<typeof idSchema>;

/** Timestamps in responses: ISO 8601 / RFC 3339 in UTC. */
export const timestampSchema = z.iso.datetime().meta({ description: 'ISO 8601 timestamp in UTC.' });

/** Stream revision of the object: the value `ETag` carries and `If-Match` expects. */
export const revisionSchema = z
  .int()
  .min(0)
  .meta({ description: 'Revision of the object, as `ETag` carries it.' });

export const messageDetailSchema = z.object({
  path: z.string().meta({ description: 'Field path, e.g. `links[0].href`; empty for the body itself.' }),
  message: z.string(),
});
export type MessageDetail = z.infer<typeof messageDetailSchema>;

/** The body of every error response. */
export const messageSchema = z.object({
  message: z.string(),
  code: z
    .string()
    .exactOptional()
    .meta({ description: 'Stable machine-readable code, e.g. `PARENT_NOT_FOUND`.' }),
  details: z.array(messageDetailSchema).exactOptional(),
});
export type Message = z.infer<typeof messageSchema>;

export const createdObjectSchema = z.object({ portalItemId: idSchema });
export type CreatedObject = z.infer<typeof createdObjectSchema>;

export const deletedObjectsSchema = z.object({
  deleted: z.array(idSchema).meta({ description: 'Ids that received a tombstone.' }),
});
export type DeletedObjects = z.infer<typeof deletedObjectsSchema>;

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 1000;
const limitMessage = `must be an integer from 1 to ${MAX_PAGE_LIMIT}`;

/** Keyset pagination. Query strings carry text, so `limit` is coerced from a string. */
export const listQuerySchema = z.object({
  limit: z.coerce
    .number({ error: limitMessage })
    .int({ error: limitMessage })
    .min(1, { error: limitMessage })
    .max(MAX_PAGE_LIMIT, { error: limitMessage })
    .default(DEFAULT_PAGE_LIMIT)
    .meta({ description: 'Page size.' }),
  cursor: z
    .string({ error: expected('a string') })
    .min(1, { error: 'must not be empty' })
    .exactOptional()
    .meta({ description: 'Opaque cursor from the `next` of the previous page.' }),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export const pageLinkSchema = z.object({
  rel: z.literal('next'),
  href: z.string().meta({ description: 'URL of the next page.' }),
  type: z.string().exactOptional().meta({ description: 'Media type of the next page.' }),
});
export type PageLink = z.infer<typeof pageLinkSchema>;

/** The envelope of every list: `next` is null and `links` empty on the last page. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    next: z.string().nullable().meta({ description: 'Cursor of the next page; null on the last page.' }),
    links: z.array(pageLinkSchema),
  });
}
export interface Page<T> {
  items: T[];
  next: string | null;
  links: PageLink[];
}

/** `recursive=true` deletes a non-empty container with everything below it; absent means false. */
export const recursiveFlagSchema = z
  .enum(['true', 'false'], { error: expected('"true" or "false"') })
  .optional()
  .transform((value) => value === 'true')
  .meta({ description: 'Delete a non-empty container with everything below it.' });
