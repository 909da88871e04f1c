import type { StacItem } from '@portal/contracts';

/**
 * The portal id of a STAC Item: the last segment of its `alternate` link to its portal record. Its STAC
 * `id` is the name its client gave it when there is one (docs/stac.md, "Item ids"), which names no
 * portal record and is unique only in its collection.
 */
export function portalIdOf(item: StacItem): string {
  const record = item.links.find(
    (link) => link.rel === 'alternate' && link.href.includes('/api/v1/portal/items/'),
  );
  return record?.href.split('/').at(-1) ?? item.id;
}
