import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';
import type { UserEvent } from './events.js';

export interface RegisterUser {
  readonly type: 'RegisterUser';
  readonly data: { readonly userId: string; readonly email: string; readonly name: string };
}

export type UserCommand = RegisterUser;

/** A user's stream (`user-<id>`) holds who registered; credentials live outside the event store. */
export type UserState =
  | { readonly status: 'absent' }
  | { readonly status: 'registered'; readonly userId: string; readonly name: string };

export const initialUserState: UserState = { status: 'absent' };

/** `UserRegistered` is the only user event: a switch over its type would have a single case. */
export function evolveUser(state: UserState, event: UserEvent): UserState {
  if (state.status !== 'absent') return state;
  return { status: 'registered', userId: event.data.userId, name: event.data.name };
}

/** `RegisterUser` is the only user command; a user registers once. */
export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  if (state.status !== 'absent') throw new DomainError('ALREADY_EXISTS', 'the user already exists');
  return [{ type: 'UserRegistered', data: command.data }];
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  decide: decideUser,
  evolve: evolveUser,
  initialState: initialUserState,
};
