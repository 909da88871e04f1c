import { describe, expect, it } from 'vitest';
import { DummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';

// The lowest cost the configuration allows keeps the suite fast; the format carries the cost.
const COST = 10;

describe('password hashing (scrypt)', () => {
  it('verifies the password a hash was made from, and no other', async () => {
    const hash = await hashPassword('correct horse battery staple', COST);
    expect(hash).toMatch(/^scrypt\$10\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('salts every hash', async () => {
    const [a, b] = await Promise.all([hashPassword('same', COST), hashPassword('same', COST)]);
    expect(a).not.toBe(b);
  });

  it('verifies with the parameters stored in the hash, so a cost change keeps old hashes valid', async () => {
    const old = await hashPassword('pw-of-old', 11);
    expect(await verifyPassword('pw-of-old', old)).toBe(true);
  });

  it('uses 32 MiB at the default cost (N = 2^15, r = 8)', async () => {
    const hash = await hashPassword('memory-hard', 15);
    expect(hash.startsWith('scrypt$15$8$1$')).toBe(true);
    expect(await verifyPassword('memory-hard', hash)).toBe(true);
  });

  it('matches a password typed in another Unicode form', async () => {
    const hash = await hashPassword('Café', COST);
    expect(await verifyPassword('Cafe\u0301', hash)).toBe(true);
  });

  it('refuses a malformed stored hash instead of throwing', async () => {
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$10$8$1$$')).toBe(false);
  });

  it('keeps one dummy hash that nothing verifies against', async () => {
    const dummy = new DummyPasswordHash(COST);
    const hash = await dummy.value();
    expect(await dummy.value()).toBe(hash);
    expect(await verifyPassword('', hash)).toBe(false);
  });
});
