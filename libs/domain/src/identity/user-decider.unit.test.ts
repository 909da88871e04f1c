import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { decideUser, evolveUser, initialUserState, type RegisterUser } from './user-decider.js';

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
    expect(state).toStrictEqual({ status: 'registered', userId: register.data.userId, name: 'Ada' });
    expect(() => decideUser(register, state)).toThrow(DomainError);
    expect(() => decideUser(register, state)).toThrow(/already exists/);
  });
});
