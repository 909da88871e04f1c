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
  // The base goes into self, root and parent, the collection link, and each uploaded asset's href.
  const expected = 3 + (item.collection === undefined ? 0 : 1) + assets.length;
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
  const base = jsonStringContent(baseUrl);
  // A function, not a replacement string: `$&` and the like in a base would be patterns there.
  return text.replaceAll(BASE_URL_PLACEHOLDER, () => base);
}

/**
 * JSON text holding stored items, as the UTF-8 bytes of an answer: `parts` one after the other, every
 * placeholder in them replaced by the request's base URL, encoded once straight into one Buffer. Joining
 * the parts into a string, replacing in it and encoding the result copied a page of 100–200 KB three
 * times more (and node copied it once again to put its headers in front); the texts as pg returns them
 * are written where they go, the base URL between their pieces.
 */
export function jsonBytesWithBaseUrl(parts: readonly string[], baseUrl: string): Buffer {
  const base = Buffer.from(jsonStringContent(baseUrl));
  // The placeholder is one byte in UTF-8; the base takes its place.
  const grows = base.length - 1;
  const holes = parts.map(placeholdersIn);
  let length = 0;
  parts.forEach((part, index) => {
    length += Buffer.byteLength(part) + (holes[index]?.length ?? 0) * grows;
  });
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  parts.forEach((part, index) => {
    let from = 0;
    for (const hole of holes[index] ?? []) {
      at += bytes.write(part.slice(from, hole), at);
      // A copy of bytes, not another encoding of a string.
      bytes.set(base, at);
      at += base.length;
      from = hole + 1;
    }
    at += bytes.write(from === 0 ? part : part.slice(from), at);
  });
  return bytes;
}

function placeholdersIn(text: string): number[] {
  const holes: number[] = [];
  for (
    let hole = text.indexOf(BASE_URL_PLACEHOLDER);
    hole !== -1;
    hole = text.indexOf(BASE_URL_PLACEHOLDER, hole + 1)
  )
    holes.push(hole);
  return holes;
}
