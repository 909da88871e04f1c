import { z } from 'zod';
import { boundedArray, boundedText, jsonObject, strictObject } from './messages.js';

export const LINK_TEXT_MAX = 140;
export const LINK_HREF_MAX = 2048;
/** Invented bound (the contract sets none): keeps one body from carrying an unbounded link list. */
export const MAX_LINKS = 100;

/** A link as clients send it on create and update; every field is required. */
export const linkSchema = strictObject({
  title: boundedText(1, LINK_TEXT_MAX),
  href: boundedText(1, LINK_HREF_MAX),
  rel: boundedText(1, LINK_TEXT_MAX),
  type: boundedText(1, LINK_TEXT_MAX),
  targetType: boundedText(1, LINK_TEXT_MAX),
  linkJson: jsonObject().meta({
    description: 'Free-form JSON object; anything a link needs beyond its fields.',
  }),
});
export type Link = z.infer<typeof linkSchema>;

export const linksSchema = boundedArray(linkSchema, { max: MAX_LINKS, unit: 'link' });

/** A link in the portal item record: the contract guarantees only `rel`. */
export const portalItemLinkSchema = z.object({
  rel: z.string(),
  title: z.string().exactOptional(),
  href: z.string().exactOptional(),
  type: z.string().exactOptional(),
  targetType: z.string().exactOptional(),
  linkJson: z.record(z.string(), z.unknown()).exactOptional(),
});
export type PortalItemLink = z.infer<typeof portalItemLinkSchema>;

/** A link in the collection record as the contract shows it, plus STAC's optional `title`. */
export const collectionLinkSchema = z.object({
  href: z.string().meta({ description: 'Absolute URL.' }),
  rel: z.string(),
  type: z.string().meta({ description: 'Media type.' }),
  title: z.string().exactOptional(),
});
export type CollectionLink = z.infer<typeof collectionLinkSchema>;
