import { DomainError } from '../errors.js';

/**
 * An asset registered by href: a file that lives elsewhere (a public bucket, another archive), described
 * by its STAC asset object and never uploaded through the portal. The object is kept as sent (`href`,
 * `type`, `title`, `roles` and any other field, e.g. `eo:bands`, JSON types preserved), so a STAC client
 * reads back what it wrote.
 */
export interface HrefAsset {
  /** Stable for as long as the key exists: a replaced asset keeps its id. */
  readonly id: string;
  readonly key: string;
  readonly asset: HrefAssetObject;
}

export type HrefAssetObject = Readonly<Record<string, unknown>> & { readonly href: string };

/** Add or replace assets by key (the whole object of each), and remove keys: a merge patch of `assets`. */
export interface HrefAssetPatch {
  readonly set: readonly HrefAsset[];
  readonly remove: readonly string[];
}

/** Limits of the registered assets (docs/stac.md, Assets by href); invented, generous for real items. */
export const hrefAssetLimits = {
  perItem: 100,
  keyLength: 100,
  hrefLength: 2048,
  /** Characters of the asset object as JSON: room for band lists, not for a data set. */
  objectJsonLength: 16_384,
  typeLength: 255,
  titleLength: 1000,
  roles: 20,
  roleLength: 100,
} as const;

/** Letters, digits, `_ . : -`, starting with a letter, a digit or `_`: keys STAC clients use as names. */
const KEY_SHAPE = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;
const HREF_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 's3:']);

function invalid(itemId: string, key: string, problem: string): DomainError {
  return new DomainError('INVALID_COMMAND', `item ${itemId}: asset '${key}': ${problem}`);
}

function checkHref(itemId: string, key: string, href: unknown): void {
  if (typeof href !== 'string') throw invalid(itemId, key, 'href must be a string');
  if (href.length > hrefAssetLimits.hrefLength) {
    throw invalid(itemId, key, `href must be at most ${hrefAssetLimits.hrefLength} characters`);
  }
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw invalid(itemId, key, 'href must be an absolute URL (http, https or s3)');
  }
  if (!HREF_SCHEMES.has(url.protocol) || url.hostname === '') {
    throw invalid(itemId, key, 'href must be an absolute http, https or s3 URL with a host');
  }
}

function checkOptionalText(itemId: string, key: string, field: string, value: unknown, max: number): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw invalid(itemId, key, `${field} must be a string of 1 to ${max} characters`);
  }
}

function checkRoles(itemId: string, key: string, roles: unknown): void {
  if (roles === undefined) return;
  const { roles: max, roleLength } = hrefAssetLimits;
  const valid =
    Array.isArray(roles) &&
    roles.length <= max &&
    roles.every((role) => typeof role === 'string' && role.length > 0 && role.length <= roleLength);
  if (!valid) {
    throw invalid(
      itemId,
      key,
      `roles must be an array of at most ${max} strings of 1 to ${roleLength} characters`,
    );
  }
}

function checkOne(itemId: string, { key, asset }: HrefAsset): void {
  if (key.length === 0 || key.length > hrefAssetLimits.keyLength || !KEY_SHAPE.test(key)) {
    throw new DomainError(
      'INVALID_COMMAND',
      `item ${itemId}: asset key '${key.slice(0, 120)}' must be 1 to ${hrefAssetLimits.keyLength} letters, digits, '_', '.', ':' or '-', not starting with '.', ':' or '-'`,
    );
  }
  checkHref(itemId, key, asset.href);
  checkOptionalText(itemId, key, 'type', asset['type'], hrefAssetLimits.typeLength);
  checkOptionalText(itemId, key, 'title', asset['title'], hrefAssetLimits.titleLength);
  checkRoles(itemId, key, asset['roles']);
  if (JSON.stringify(asset).length > hrefAssetLimits.objectJsonLength) {
    throw invalid(
      itemId,
      key,
      `the asset object must be at most ${hrefAssetLimits.objectJsonLength} characters as JSON`,
    );
  }
}

/** Refuses an asset list the item may not carry: a bad key, href or field, a key twice, too many. */
export function checkHrefAssets(itemId: string, assets: readonly HrefAsset[]): void {
  if (assets.length > hrefAssetLimits.perItem) {
    throw new DomainError(
      'INVALID_COMMAND',
      `item ${itemId}: at most ${hrefAssetLimits.perItem} assets by href, not ${assets.length}`,
    );
  }
  const seen = new Set<string>();
  for (const asset of assets) {
    checkOne(itemId, asset);
    if (seen.has(asset.key)) throw invalid(itemId, asset.key, 'the key is given twice');
    seen.add(asset.key);
  }
}

/**
 * The list a patch leaves: removed keys go, a set key replaces its asset in place (keeping its id) or
 * comes last. Removing a key the item does not have changes nothing, as in a JSON merge patch.
 */
export function applyHrefAssetPatch(current: readonly HrefAsset[], patch: HrefAssetPatch): HrefAsset[] {
  const removed = new Set(patch.remove);
  const setByKey = new Map(patch.set.map((asset) => [asset.key, asset]));
  const kept = current
    .filter((asset) => !removed.has(asset.key))
    .map((asset) => {
      const replacement = setByKey.get(asset.key);
      return replacement ? { ...replacement, id: asset.id } : asset;
    });
  const keptKeys = new Set(kept.map((asset) => asset.key));
  return [...kept, ...patch.set.filter((asset) => !keptKeys.has(asset.key))];
}

/** A whole new list (a replace): assets whose key the item already has keep their id. */
export function withStableAssetIds(current: readonly HrefAsset[], next: readonly HrefAsset[]): HrefAsset[] {
  const idByKey = new Map(current.map((asset) => [asset.key, asset.id]));
  return next.map((asset) => ({ ...asset, id: idByKey.get(asset.key) ?? asset.id }));
}
