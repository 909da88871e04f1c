import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import {
  decideUser,
  evolveUser,
  initialUserState,
  type DisableUser,
  type RegisterUser,
  type UserState,
} from './user-decider.js';

const register: RegisterUser = {
  type: 'RegisterUser',
  data: { userId: crypto.randomUUID(), email: 'ada@example.org', name: 'Ada' },
};

describe('user decider', () => {
  it('registers a user whose stream does not exist yet', () => {
    expect(decideUser(register, initialUserState)).toStrictEqual([
      { type: 'UserRegistered', data: register.data },
    ]);
  });

  it('refuses to register the same user twice', () => {
    const [registered] = decideUser(register, initialUserState);
    if (!registered) throw new Error('nothing was registered');
    const state = evolveUser(initialUserState, registered);
    expect(state).toStrictEqual({
      status: 'registered',
      userId: register.data.userId,
      name: 'Ada',
      disabled: false,
    });
    expect(() => decideUser(register, state)).toThrow(DomainError);
    expect(() => decideUser(register, state)).toThrow(/already exists/);
  });

  it('disables a registered user once, with the reason, and refuses an unknown one', () => {
    const disable: DisableUser = {
      type: 'DisableUser',
      data: { userId: register.data.userId, reason: 'account compromised' },
    };
    expect(() => decideUser(disable, initialUserState)).toThrow(/user not found/);
    const registered: UserState = decideUser(register, initialUserState).reduce(evolveUser, initialUserState);
    const events = decideUser(disable, registered);
    expect(events).toStrictEqual([{ type: 'UserDisabled', data: disable.data }]);
    const disabled = events.reduce(evolveUser, registered);
    expect(disabled).toMatchObject({ status: 'registered', disabled: true });
    expect(decideUser(disable, disabled)).toStrictEqual([]);
  });
});
