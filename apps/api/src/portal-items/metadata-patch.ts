import { itemMetadataPatchShape, propertiesSchema, type UpdatePortalItemBody } from '@portal/contracts';
import { DomainError, type ItemMetadata, type LivePortalObject } from '@portal/domain';
import { parseInput } from '../http/validate.js';
import { mergePatch } from '../stac/transactions/merge-patch.js';

type MetadataField = keyof typeof itemMetadataPatchShape;
const metadataFields = Object.keys(itemMetadataPatchShape) as MetadataField[];
const timeFields = ['datetime', 'start_datetime', 'end_datetime'] as const;

/** The item metadata fields a PATCH body gives, in the contract's order. */
export function givenMetadataFields(body: UpdatePortalItemBody): MetadataField[] {
  return metadataFields.filter((field) => body[field] !== undefined);
}

/**
 * The item's whole new metadata from a portal PATCH (the contract's `itemMetadataPatchShape` says what
 * each field means), or `undefined` when the body gives none. The event carries the whole metadata, as
 * a STAC PUT or PATCH writes it, so the projection, history and audit need nothing new; the decider
 * leaves out a patch that changes nothing.
 */
export function patchedMetadata(
  object: LivePortalObject,
  body: UpdatePortalItemBody,
): ItemMetadata | undefined {
  const given = givenMetadataFields(body);
  if (given.length === 0) return undefined;
  if (object.kind !== 'item') {
    const verb = given.length === 1 ? 'does' : 'do';
    throw new DomainError(
      'INVALID_COMMAND',
      `${object.kind} ${object.id}: ${given.join(', ')} ${verb} not apply to a ${object.kind} (only to items)`,
    );
  }
  const current = object.metadata;
  const timeGiven = timeFields.some((field) => body[field] !== undefined);
  const geometry = body.geometry === undefined ? current.geometry : body.geometry;
  return {
    geometry,
    // A bbox given before described the old geometry; the new one's is derived unless given too.
    bbox: body.bbox !== undefined ? body.bbox : body.geometry !== undefined ? null : current.bbox,
    datetime: timeGiven ? (body.datetime ?? null) : current.datetime,
    startDatetime: timeGiven ? (body.start_datetime ?? null) : current.startDatetime,
    endDatetime: timeGiven ? (body.end_datetime ?? null) : current.endDatetime,
    tags: body.tags ?? current.tags,
    properties: patchedProperties(current.properties, body.properties),
  };
}

/** The merge patch applied; the result must still fit the bound a create checks. */
function patchedProperties(
  current: ItemMetadata['properties'],
  patch: UpdatePortalItemBody['properties'],
): ItemMetadata['properties'] {
  if (patch === undefined) return current;
  if (patch === null) return null;
  const merged = parseInput(propertiesSchema, mergePatch(current ?? {}, patch), 'properties once merged');
  // Removing a key the item never had changes nothing, not even `null` into `{}`.
  return current === null && Object.keys(merged).length === 0 ? null : merged;
}
