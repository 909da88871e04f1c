import { stacItem, type ItemAsset, type ItemRow } from './stac-item.js';
import { itemUrls } from './stac-urls.js';

/**
 * An item's STAC JSON is stored as the text `stacItem` answers a caller who may read the item's parent
 * (`portal_objects.stac_item`), so a page of items is answered by joining texts instead of building and
 * serializing every item per request (docs/stac.md, "Stored item JSON"). The public base URL is not
 * known to the projector (it differs per deployment, and per request in development), so every place
 * it goes holds this character instead; JSON.stringify escapes every control character, so the raw
 * character occurs in the stored text nowhere else, and answering replaces each with the request's base.
 */
export const BASE_URL_PLACEHOLDER = '\u0001';

/** The stored text of an item whose JSON depends on the base URL in a way a placeholder cannot hold. */
export const UNSTORABLE_ITEM = '';

const placeholderUrls = itemUrls(BASE_URL_PLACEHOLDER);

/** JSON.stringify's escape of the placeholder, and any other escape pair (read past: `\\u0001` is not it). */
const escapes = /\\u0001|\\./g;

/**
 * The stored text of an item, or `UNSTORABLE_ITEM` (the API then builds it per request):
 * - a portal link with a relative href: it resolves against the base URL as a URL (its path may drop
 *   the base's own path), which no plain substitution reproduces;
 * - a text of the item's own holding the placeholder character: its escape could not be told apart.
 * Absolute hrefs resolve the same against any base, so they are resolved here, once.
 */
export function storedStacItemText(row: ItemRow, assets: readonly ItemAsset[]): string {
  if (!row.links.every((link) => URL.canParse(link.href))) return UNSTORABLE_ITEM;
  const links = row.links.map((link) => ({ ...link, href: new URL(link.href).toString() }));
  const item = stacItem({ ...row, links }, assets, placeholderUrls, BASE_URL_PLACEHOLDER);
  let placed = 0;
  const text = JSON.stringify(item).replace(escapes, (escape) => {
    if (escape !== '\\u0001') return escape;
    placed += 1;
    return BASE_URL_PLACEHOLDER;
  });
  // The base goes into self, root, parent and the portal item's link, the collection link, and each
  // uploaded asset's href.
  const expected = 4 + (item.collection === undefined ? 0 : 1) + assets.length;
  return placed === expected ? text : UNSTORABLE_ITEM;
}

/** The base URL as it goes inside a JSON string. */
function jsonStringContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * JSON text holding stored items (one, or a page joined around them) with the request's base URL put
 * back in every place the placeholder holds.
 */
export function withBaseUrl(text: string, baseUrl: string): string {
  return baseUrlFiller(baseUrl)(text);
}

/**
 * `withBaseUrl` for many texts of one request (a page's items, each put in on its own): the base is
 * escaped for JSON once.
 */
export function baseUrlFiller(baseUrl: string): (text: string) => string {
  const content = jsonStringContent(baseUrl);
  // Split and joined, not replaced: `$&` and the like in a base would be patterns in a replacement
  // string, and a replacement function, called per placeholder, was the slower way round.
  return (text) => text.split(BASE_URL_PLACEHOLDER).join(content);
}
