import type { CollectionExtent } from '@portal/domain';
import type { PortalObjectRow } from '@portal/read-model-portal-objects';
import { absoluteHref } from '../http/base-url.js';

const JSON_MEDIA_TYPE = 'application/json';
const DEFAULT_LICENSE = 'other';

const WHOLE_WORLD = [-180, -90, 180, 90] as const;

/**
 * The extent of a collection created without one: computed by the projector from the ready items below
 * it. Before any ready item carries a bbox or a time, the whole world, open-ended from the collection's
 * creation, since the contract requires both arrays and a start.
 */
export function computedExtent(row: PortalObjectRow): CollectionExtent {
  const [west, south, east, north] = row.items_bbox ?? WHOLE_WORLD;
  const start = (row.items_start ?? row.created_at).toISOString();
  const end = row.items_end?.toISOString() ?? null;
  return {
    spatial: { bbox: [[west, south, east, north]] },
    temporal: { interval: [[start, end]] },
  };
}

/** The extent given on create or update, else the computed one. */
export function extentOf(row: PortalObjectRow): CollectionExtent {
  return (row.extent as CollectionExtent | null) ?? computedExtent(row);
}

/** The contract's collection record: STAC-like, every link href absolute. */
export function collectionRecord(row: PortalObjectRow, baseUrl: string) {
  const self = `${baseUrl}/api/v1/collections/${row.id}`;
  const navigation = [
    { href: self, rel: 'self', type: JSON_MEDIA_TYPE },
    { href: `${baseUrl}/api/v1/browser/root`, rel: 'root', type: JSON_MEDIA_TYPE },
    ...(row.parent_id
      ? [{ href: `${baseUrl}/api/v1/portal/catalogs/${row.parent_id}`, rel: 'parent', type: JSON_MEDIA_TYPE }]
      : []),
  ];
  const own = row.links.map((link) => ({
    href: absoluteHref(link.href, baseUrl),
    rel: link.rel,
    type: link.type,
    title: link.title,
  }));
  return {
    id: row.id,
    type: 'collection' as const,
    title: row.title,
    description: row.description ?? '',
    license: row.license ?? DEFAULT_LICENSE,
    keywords: row.keywords ?? [],
    extent: extentOf(row),
    links: [...navigation, ...own],
  };
}
