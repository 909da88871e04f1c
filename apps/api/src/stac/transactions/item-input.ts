import { createItemBodySchema, type CreateItemBody, type StacItemInput } from '@portal/contracts';
import { isUuid } from '@portal/domain';
import type { CollectionKey } from '@portal/read-model-portal-objects';
import { PORTAL_ITEM_LINK_TITLE } from '@portal/read-model-portal-objects';
import { HttpProblem } from '../../http/problem.js';
import { parseInput } from '../../http/validate.js';

/** Links the STAC API writes itself on every item; a client's copy of them is not kept. */
const GENERATED_RELS = new Set(['self', 'root', 'parent', 'collection', 'items']);

/** The item's `alternate` link to its portal record, which the STAC API writes too (a client's own stay). */
const PORTAL_RECORD =
  /\/api\/v1\/portal\/items\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isGenerated(link: {
  readonly rel: string;
  readonly href: string;
  readonly title?: string;
}): boolean {
  if (GENERATED_RELS.has(link.rel)) return true;
  return link.rel === 'alternate' && link.title === PORTAL_ITEM_LINK_TITLE && PORTAL_RECORD.test(link.href);
}

/** The STAC fields of `properties` that are the item's own columns (or the portal's) rather than free-form. */
const OWN_PROPERTIES = ['title', 'description', 'datetime', 'start_datetime', 'end_datetime'] as const;
const PORTAL_PROPERTIES = ['created', 'updated'] as const;

function refused(message: string): HttpProblem {
  return new HttpProblem(400, message, 'VALIDATION_FAILED');
}

/**
 * The UUID a client gave a new item or collection (lower case), or `null`: any other id is its STAC name
 * (the create body's `stacId`: docs/stac.md, "Item ids", "Collection ids"), and none a fresh UUID.
 */
export function clientUuid(input: { readonly id?: string | undefined }): string | null {
  return input.id !== undefined && isUuid(input.id) ? input.id.toLowerCase() : null;
}

/**
 * STAC links as portal links, but the ones the STAC API writes itself: what the portal needs and STAC
 * leaves optional is filled from them.
 */
export function portalLinksOf(links: NonNullable<StacItemInput['links']>) {
  return links.filter((link) => !isGenerated(link)).map(portalLinkOf);
}

function portalLinkOf(link: NonNullable<StacItemInput['links']>[number]) {
  const { href, rel, type, title, ...rest } = link;
  return {
    title: title ?? rel,
    href,
    rel,
    type: type ?? 'application/octet-stream',
    targetType: 'web',
    linkJson: rest,
  };
}

/**
 * The portal item create a STAC Item means, checked as the portal API checks one: `properties.title`
 * becomes the title (the id, or `Untitled item`, when none), `description` and the time fields their
 * columns, every other property is kept as sent (`created`/`updated` are the portal's), `assets` are
 * registered by href. `collection`, when given, must name the path's collection.
 */
export function createBodyOf(
  item: StacItemInput,
  collection: CollectionKey,
  position: string,
): CreateItemBody {
  const { id: collectionId, stacId: collectionStacId } = collection;
  const given = item.collection;
  if (given !== undefined && given !== collectionStacId && given.toLowerCase() !== collectionId) {
    throw refused(`${position}collection: '${given.slice(0, 100)}' is not the collection of the path`);
  }
  const own: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item.properties)) {
    if ((OWN_PROPERTIES as readonly string[]).includes(name)) own[name] = value;
    else if (!(PORTAL_PROPERTIES as readonly string[]).includes(name)) rest[name] = value;
  }
  const body: Record<string, unknown> = {
    title: own['title'] ?? item.id ?? 'Untitled item',
    parentId: collectionId,
    links: portalLinksOf(item.links ?? []),
    assets: item.assets ?? {},
  };
  for (const name of ['description', 'datetime', 'start_datetime', 'end_datetime'] as const) {
    // STAC writes `datetime: null` for a range; the portal leaves the field out.
    if (own[name] !== undefined && own[name] !== null) body[name] = own[name];
  }
  if (item.geometry !== null && item.geometry !== undefined) body['geometry'] = item.geometry;
  if (item.bbox !== undefined) body['bbox'] = item.bbox;
  if (Object.keys(rest).length > 0) body['properties'] = rest;
  if (item.id !== undefined && !isUuid(item.id)) body['stacId'] = item.id;
  return parseInput(createItemBodySchema, body, position === '' ? 'item' : `item ${position.slice(0, -1)}`);
}
