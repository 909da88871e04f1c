import type { DomainEvent } from './metadata.js';

/**
 * A stream's rules as three pure functions: what a command means in a state (the events to append,
 * none for a no-op, or a `DomainError`), how an event changes the state, and the state of a stream
 * that does not exist. The command handler (`@portal/commands`, `handleCommand`) loads, folds, decides
 * and appends with them; no writer folds or appends on its own.
 */
export interface Decider<Command, Event extends DomainEvent, State> {
  readonly decide: (command: Command, state: State) => readonly Event[];
  readonly evolve: (state: State, event: Event) => State;
  readonly initialState: State;
}
