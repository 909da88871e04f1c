import type { AsOf } from '@portal/contracts';
import { foldState, type LivePortalObject, type RecordedEvent } from '@portal/domain';
import { portalEventOf } from './readable-stream.js';

/** The object as it was: its folded state and the events it was folded from. */
export interface PastObject {
  readonly state: LivePortalObject;
  readonly events: readonly [RecordedEvent, ...RecordedEvent[]];
}

/** Why there is no past object to answer: not created yet, deleted by then, or a revision not reached. */
export type NoPastObject = 'not-created' | 'deleted' | 'no-such-revision';

function isAtOrBefore(event: RecordedEvent, asOf: AsOf): boolean {
  if (asOf.kind === 'revision') return event.revision <= BigInt(asOf.revision);
  return Date.parse(event.metadata.occurredAt) <= asOf.at.getTime();
}

/**
 * Folds the stream up to `asOf`: the events up to that revision, or those that occurred at or before
 * that time. A prefix of the stream, never a selection: each event applies to the state its predecessors
 * left, so an event recorded later with an earlier clock reading ends the prefix rather than being folded
 * out of order.
 */
export function pastObject(events: readonly RecordedEvent[], asOf: AsOf): PastObject | NoPastObject {
  const last = events.at(-1);
  if (asOf.kind === 'revision' && (last === undefined || BigInt(asOf.revision) > last.revision)) {
    return 'no-such-revision';
  }
  const end = events.findIndex((event) => !isAtOrBefore(event, asOf));
  const prefix = end === -1 ? events : events.slice(0, end);
  const [first, ...rest] = prefix;
  if (first === undefined) return 'not-created';
  const state = foldState(prefix.map(portalEventOf));
  if (state.status === 'absent') return 'not-created';
  if (state.status === 'deleted') return 'deleted';
  return { state, events: [first, ...rest] };
}
