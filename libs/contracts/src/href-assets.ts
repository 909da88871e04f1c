import { z } from 'zod';
import { boundedArray, boundedText, expected, jsonObject, MAX_JSON_DEPTH } from './messages.js';

/** Assets by href an item may carry; the domain enforces the same (docs/stac.md, Assets by href). */
export const MAX_HREF_ASSETS = 100;
export const HREF_ASSET_KEY_MAX = 100;
export const HREF_MAX = 2048;

export const HREF_ASSET_JSON_MAX = 16_384;

const storableJson = jsonObject();
const KEY_SHAPE = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;

const KEY_RULE = `1 to ${HREF_ASSET_KEY_MAX} letters, digits, '_', '.', ':' or '-', not starting with '.', ':' or '-'`;

/** zod reports a bad record key without its own message: the keys are checked here instead. */
function checkKeys(value: Readonly<Record<string, unknown>>, ctx: z.RefinementCtx): void {
  const count = Object.keys(value).length;
  if (count > MAX_HREF_ASSETS) {
    ctx.addIssue({ code: 'custom', message: `must have at most ${MAX_HREF_ASSETS} assets, not ${count}` });
  }
  const bad = Object.keys(value).find((key) => key.length > HREF_ASSET_KEY_MAX || !KEY_SHAPE.test(key));
  if (bad === undefined) return;
  ctx.addIssue({ code: 'custom', path: [bad], message: `an asset key must be ${KEY_RULE}` });
}

/**
 * A STAC asset object: `href` (an absolute http, https or s3 URL), and optionally `type`, `title`,
 * `roles` and any other field, kept exactly as sent.
 */
export const hrefAssetObjectSchema = z
  .looseObject(
    {
      href: boundedText(1, HREF_MAX),
      type: boundedText(1, 255).exactOptional(),
      title: boundedText(1, 1000).exactOptional(),
      roles: boundedArray(boundedText(1, 100), { max: 20, unit: 'role' }).exactOptional(),
    },
    { error: expected('a STAC asset object') },
  )
  // The other fields are free-form JSON: bounded in depth and storable, as `properties` are.
  .refine((asset) => storableJson.safeParse(asset).success, {
    error: `must nest at most ${MAX_JSON_DEPTH} levels and hold only text PostgreSQL can store`,
    // The size check serialises: it must not see an unbounded depth.
    abort: true,
  })
  .refine((asset) => JSON.stringify(asset).length <= HREF_ASSET_JSON_MAX, {
    error: `must be at most ${HREF_ASSET_JSON_MAX} characters as JSON`,
  })
  .meta({
    description:
      'A STAC asset object: `href` (absolute http, https or s3 URL), optional `type`, `title`, `roles` and any other field, kept as sent (at most 16 KiB as JSON).',
  });
export type HrefAssetObject = z.infer<typeof hrefAssetObjectSchema>;

/** Assets by key, as a STAC item lists them. */
export const hrefAssetsSchema = z
  .record(z.string(), hrefAssetObjectSchema, { error: expected('an object of assets by key') })
  .superRefine(checkKeys)
  .meta({ description: `Assets registered by href, by key (at most ${MAX_HREF_ASSETS}).` });

/** A merge patch of an item's assets by href: an object adds or replaces that key, `null` removes it. */
export const hrefAssetsPatchSchema = z
  .record(z.string(), hrefAssetObjectSchema.nullable(), { error: expected('an object of assets by key') })
  .superRefine(checkKeys)
  .meta({
    description:
      'Assets registered by href, by key: an asset object adds or replaces the asset of that key, `null` removes it; keys not named stay.',
  });
