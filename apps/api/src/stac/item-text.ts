import type { Pool } from '@portal/platform';
import { requireFound } from '@portal/commands';
import { findAssetsOf, stacItem, withBaseUrl, type Principals } from '@portal/read-model-portal-objects';
import { findVisibleItem } from './item-query.js';
import type { StacUrls } from './stac-links.js';

/**
 * One item's STAC JSON as text: its stored JSON with the base URL put back, else (its parent hidden
 * from the caller, a text that could not be stored) built from its row and assets as before.
 */
export async function itemJsonText(
  pool: Pool,
  item: { readonly id: string; readonly stored: string | null },
  principals: Principals,
  urls: StacUrls,
  baseUrl: string,
): Promise<string> {
  if (item.stored !== null) return withBaseUrl(item.stored, baseUrl);
  // Deleted or hidden since it was read: as if it had been so then.
  const row = requireFound(await findVisibleItem(pool, item.id, principals), `item ${item.id}`);
  const assets = await findAssetsOf(pool, [row.id]);
  return JSON.stringify(stacItem(row, assets.get(row.id) ?? [], urls, baseUrl));
}
