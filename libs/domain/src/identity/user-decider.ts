import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';
import type { UserEvent } from './events.js';

export interface RegisterUser {
  readonly type: 'RegisterUser';
  readonly data: { readonly userId: string; readonly email: string; readonly name: string };
}

/** The operator's (docs/admin-cli.md); the reason is recorded for whoever reads the history later. */
export interface DisableUser {
  readonly type: 'DisableUser';
  readonly data: { readonly userId: string; readonly reason: string | null };
}

export type UserCommand = RegisterUser | DisableUser;

/** A user's stream (`user-<id>`) holds who registered; credentials live outside the event store. */
export type UserState =
  | { readonly status: 'absent' }
  | {
      readonly status: 'registered';
      readonly userId: string;
      readonly name: string;
      readonly disabled: boolean;
    };

export const initialUserState: UserState = { status: 'absent' };

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      if (state.status !== 'absent') return state;
      return { status: 'registered', userId: event.data.userId, name: event.data.name, disabled: false };
    case 'UserDisabled':
      return state.status === 'registered' ? { ...state, disabled: true } : state;
  }
}

/** A user registers once; disabling a disabled user changes nothing. */
export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      if (state.status !== 'absent') throw new DomainError('ALREADY_EXISTS', 'the user already exists');
      return [{ type: 'UserRegistered', data: command.data }];
    case 'DisableUser':
      if (state.status !== 'registered') throw new DomainError('NOT_FOUND', 'user not found');
      return state.disabled ? [] : [{ type: 'UserDisabled', data: command.data }];
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  decide: decideUser,
  evolve: evolveUser,
  initialState: initialUserState,
};
