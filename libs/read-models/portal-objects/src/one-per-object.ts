import type { RecordedEvent } from '@portal/domain';

/**
 * Throws when two events of a run's set statement are of one object: the second would depend on the
 * first, and the run cutter never lets one in (a run that breaks it falls back to event by event).
 * `failure` says so for the object found twice.
 */
export function onePerObject(
  events: readonly (readonly [{ readonly data: { readonly id: string } }, RecordedEvent])[],
  failure: (id: string) => string,
): void {
  const ids = new Set<string>();
  for (const [event] of events) {
    if (ids.has(event.data.id)) throw new Error(failure(event.data.id));
    ids.add(event.data.id);
  }
}
