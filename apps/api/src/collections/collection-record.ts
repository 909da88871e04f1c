import type { CollectionExtent } from '@portal/domain';
import type { PortalObjectRow } from '../read-model/portal-object-rows.js';
import { absoluteHref } from '../http/base-url.js';

const JSON_MEDIA_TYPE = 'application/json';
const DEFAULT_LICENSE = 'other';

/**
 * A collection created without an extent has none until ready items below it carry bboxes and times
 * (the items issue computes it in the projector); until then: the whole world, open-ended from the
 * collection's creation, since the contract requires both arrays and a start.
 */
function fallbackExtent(row: PortalObjectRow): CollectionExtent {
  return {
    spatial: { bbox: [[-180, -90, 180, 90]] },
    temporal: { interval: [[row.created_at.toISOString(), null]] },
  };
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
    extent: (row.extent as CollectionExtent | null) ?? fallbackExtent(row),
    links: [...navigation, ...own],
  };
}
