import { isUuid } from '@portal/domain';
import type { Pool } from '@portal/platform';

/**
 * Display names of the users among `ids`, from the identity read model (`read.users`): a name as it is
 * today, not as it was when the event happened. Unknown ids are left out (the entry then says `null`).
 */
export async function actorNames(pool: Pool, ids: readonly string[]): Promise<ReadonlyMap<string, string>> {
  const unique = [...new Set(ids)].filter(isUuid);
  if (unique.length === 0) return new Map();
  const result = await pool.query<{ id: string; name: string }>(
    'SELECT id, name FROM read.users WHERE id = ANY($1::uuid[])',
    [unique],
  );
  return new Map(result.rows.map((row) => [row.id, row.name]));
}
