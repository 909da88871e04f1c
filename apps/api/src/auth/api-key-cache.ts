import { BoundedMap } from '@portal/platform';
import type { AuthenticatedApiKey } from './api-key-store.js';

/** An answer is trusted this long at most, even if no signal of a change reached this process. */
const MAX_AGE_MS = 10_000;

interface Entry {
  readonly key: AuthenticatedApiKey;
  readonly storedAt: number;
}

/**
 * Usable API keys as last read, by the digest of the key, so a pipeline's requests do not each pay a
 * round trip to find out who they are. What the answer depends on changes in two ways, and each
 * empties the cache:
 *
 * - identity events (a role changed, a member removed, a key revoked, an account disabled): the
 *   projector signals every API process when a batch with one commits (`portal_identity_changed`), and
 *   a process that may have missed signals (its listener reconnected) clears too;
 * - a direct change of the auth tables (a revocation, the operator's `users disable`): the process that
 *   made it clears its own cache and announces it on the same channel, before it answers.
 *
 * Every answer is still dropped after `MAX_AGE_MS`, the bound for a change whose announcement was lost. A key's own expiry is checked on every hit.
 * Only usable keys are kept: an unknown key is asked about every time, so a new key works at once and
 * guessing fills no memory.
 */
export class ApiKeyCache {
  private readonly entries = new BoundedMap<string, Entry>(10_000);
  /** Bumped by every clear: an answer read before a clear must not be stored after it. */
  private generation = 0;

  constructor(private readonly now: () => number = Date.now) {}

  get(digest: string): AuthenticatedApiKey | undefined {
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    const now = this.now();
    const expired = entry.key.expiresAt !== null && entry.key.expiresAt.getTime() <= now;
    if (expired || now - entry.storedAt >= MAX_AGE_MS) {
      this.entries.delete(digest);
      return undefined;
    }
    return entry.key;
  }

  /** Where a lookup starts: hand it back to `store` with the answer. */
  ticket(): number {
    return this.generation;
  }

  store(digest: string, key: AuthenticatedApiKey, ticket: number): void {
    if (ticket !== this.generation) return;
    this.entries.set(digest, { key, storedAt: this.now() });
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
