import { randomUUID } from 'node:crypto';
import type { Role } from '@portal/domain';
import { applySchema, type Pool } from '@portal/platform';
import { beforeAll } from 'vitest';
import { authSchemaSql } from '../../src/auth/auth-schema.js';
import { useReadDatabase } from './read-database.js';

export interface AuthDatabase {
  readonly pool: Pool;
  readonly connectionString: string;
  /** An account (credentials and the projected user) with a personal organization it owns. */
  user(options?: { email?: string }): Promise<{ userId: string; orgId: string; email: string }>;
  /** What the projector writes when a member joins or changes role. */
  setMember(orgId: string, userId: string, role: Role | null): Promise<void>;
}

/** A database of the test file's own with the read schema and the API's `auth` schema. */
export function useAuthDatabase(name: string): AuthDatabase {
  const database = useReadDatabase(name);
  beforeAll(async () => {
    await applySchema(database.pool, 'auth', authSchemaSql);
  });

  async function setMember(orgId: string, userId: string, role: Role | null): Promise<void> {
    if (role === null) {
      await database.pool.query('DELETE FROM read.org_members WHERE org_id = $1 AND user_id = $2', [
        orgId,
        userId,
      ]);
      return;
    }
    await database.pool.query(
      `INSERT INTO read.org_members (org_id, user_id, role, joined_at, updated_at) VALUES ($1, $2, $3, now(), now())
       ON CONFLICT (org_id, user_id) DO UPDATE SET role = excluded.role`,
      [orgId, userId, role],
    );
  }

  return {
    get pool() {
      return database.pool;
    },
    connectionString: database.connectionString,
    async user(options = {}) {
      const userId = randomUUID();
      const orgId = randomUUID();
      const email = options.email ?? `user-${userId}@example.org`;
      await database.pool.query(
        `INSERT INTO auth.credentials (user_id, email, password_hash, personal_org_id) VALUES ($1, $2, 'x', $3)`,
        [userId, email, orgId],
      );
      await database.pool.query(
        `INSERT INTO read.users (id, email, name, created_at) VALUES ($1, $2, 'Test', now())`,
        [userId, email],
      );
      await setMember(orgId, userId, 'owner');
      return { userId, orgId, email };
    },
    setMember,
  };
}
