import type { EventMetadata } from '@portal/domain';

/**
 * Metadata read back from a store. Adapters write it only from a typed `EventToAppend`, so a plain
 * object is trusted as `EventMetadata`; anything else means the store holds foreign data.
 */
export function toStoredMetadata(value: unknown, eventId: string): EventMetadata {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    throw new TypeError(`event ${eventId} has metadata that is not a JSON object`);
  }
  return value as EventMetadata;
}
