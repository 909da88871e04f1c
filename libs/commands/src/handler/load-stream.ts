import type { Decider, DomainEvent, EventStore, RecordedEvent } from '@portal/domain';

/** A stream as a command decides on it. */
export interface LoadedStream<State> {
  readonly streamId: string;
  readonly events: readonly RecordedEvent[];
  readonly state: State;
  /** Revision of the last event: the expected revision of the next append; `null` for no stream. */
  readonly revision: bigint | null;
}

/**
 * The state a decider's events make, oldest first. A stream holds only what its decider decided (every
 * writer appends through `handleCommand`), and the adapters upcast old shapes on read, so its events
 * are taken as the decider's: this is the one place where stored events become typed ones.
 */
export function foldStream<Event extends DomainEvent, State>(
  decider: Pick<Decider<never, Event, State>, 'evolve' | 'initialState'>,
  events: readonly RecordedEvent[],
): State {
  let state = decider.initialState;
  for (const event of events) state = decider.evolve(state, event as DomainEvent as Event);
  return state;
}

export async function loadStream<Event extends DomainEvent, State>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<never, Event, State>, 'evolve' | 'initialState'>,
): Promise<LoadedStream<State>> {
  const events = await store.readStream(streamId);
  return { streamId, events, state: foldStream(decider, events), revision: events.at(-1)?.revision ?? null };
}
