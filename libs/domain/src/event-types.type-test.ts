/**
 * Checked by `tsc` (npm run check), never run: each `@ts-expect-error` below must meet an error, or
 * tsc reports the directive as unused. So a consumer's map or switch that leaves an event type out does
 * not compile, which is what makes `eventFamilies` the one list every consumer follows.
 */
import type { KnownEvent, EventType } from './event-types.js';

/** A consumer's handling with one type left out. */
const { UploadExpired: _left, ...allButOne } = {} as Record<EventType, boolean>;

// @ts-expect-error UploadExpired is not handled: a map that must name every type refuses it.
export const incompleteMap = allButOne satisfies Record<EventType, boolean>;

export const completeMap = { ...allButOne, UploadExpired: false } satisfies Record<EventType, boolean>;

/** The `never` check of an exhaustive switch, with every type but one handled before it. */
export function describeEvent(event: KnownEvent): string {
  if (event.type !== 'UploadExpired') return event.type;
  // @ts-expect-error UploadExpired reaches the `never` check: a switch that forgets a type fails here.
  const unhandled: never = event;
  return unhandled;
}
