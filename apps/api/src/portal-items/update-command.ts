import type { UpdatePortalItemBody } from '@portal/contracts';
import type { LoadedObject } from '@portal/commands';
import type { HrefAssetPatch, PortalObjectChanges, UpdatePortalObject } from '@portal/domain';
import { patchedMetadata } from './metadata-patch.js';

/**
 * The domain command of a PATCH (single or bulk), from the object as its stream has it: the fields as
 * given, the item's metadata fields merged into its whole metadata, and `assets` as a merge patch the
 * decider applies to the item's list. `newId` names an asset the item gets for the first time (a key it
 * already has keeps its id).
 */
export function updateCommandOf(
  object: LoadedObject,
  body: UpdatePortalItemBody,
  ancestorDeleted: boolean,
  newId: () => string,
): UpdatePortalObject {
  const { assets } = body;
  const metadata = object.state.status === 'live' ? patchedMetadata(object.state, body) : undefined;
  const changes: PortalObjectChanges = {
    ...portalFieldsOf(body),
    ...(metadata !== undefined && { metadata }),
  };
  const data = { id: object.id, changes, ancestorDeleted };
  if (assets === undefined) return { type: 'UpdatePortalObject', data };
  return { type: 'UpdatePortalObject', data: { ...data, assetPatch: hrefAssetPatchOf(assets, newId) } };
}

/** The fields that are not an item's metadata nor its assets (the domain refuses those of another kind). */
function portalFieldsOf(body: UpdatePortalItemBody): PortalObjectChanges {
  const { title, description, links, license, keywords, extent } = body;
  return {
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    ...(links !== undefined && { links }),
    ...(license !== undefined && { license }),
    ...(keywords !== undefined && { keywords }),
    ...(extent !== undefined && { extent }),
  };
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
