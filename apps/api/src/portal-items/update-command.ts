import type { UpdatePortalItemBody } from '@portal/contracts';
import type { HrefAssetPatch, UpdatePortalObject } from '@portal/domain';

/**
 * The domain command of a PATCH (single or bulk): the fields as given, and `assets` as a merge patch
 * the decider applies to the item's list. `newId` names an asset the item gets for the first time (a
 * key it already has keeps its id).
 */
export function updateCommandOf(
  id: string,
  body: UpdatePortalItemBody,
  ancestorDeleted: boolean,
  newId: () => string,
): UpdatePortalObject {
  const { assets, ...changes } = body;
  const data = { id, changes, ancestorDeleted };
  if (assets === undefined) return { type: 'UpdatePortalObject', data };
  return { type: 'UpdatePortalObject', data: { ...data, assetPatch: hrefAssetPatchOf(assets, newId) } };
}

export function hrefAssetPatchOf(
  assets: NonNullable<UpdatePortalItemBody['assets']>,
  newId: () => string,
): HrefAssetPatch {
  const entries = Object.entries(assets);
  return {
    set: entries.flatMap(([key, asset]) => (asset === null ? [] : [{ id: newId(), key, asset }])),
    remove: entries.filter(([, asset]) => asset === null).map(([key]) => key),
  };
}
