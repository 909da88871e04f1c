import { describe, expect, it } from 'vitest';
import { costliestFirst } from './index-build-order.js';

describe('costliestFirst', () => {
  const bytes = new Map([
    ['portal_objects', 1000],
    ['audit_events', 2000],
    ['users', 10],
  ]);

  it('orders index builds by the size of their table, GIN and GiST weighing more, ties as given', () => {
    const statements = [
      'CREATE INDEX IF NOT EXISTS users_email ON users (lower(email))',
      'CREATE INDEX IF NOT EXISTS a ON portal_objects (kind)',
      'CREATE INDEX IF NOT EXISTS b ON portal_objects USING gin (ancestor_ids)',
      'CREATE INDEX IF NOT EXISTS c ON audit_events (org_id, seq)',
      'CREATE INDEX IF NOT EXISTS d ON portal_objects (status)',
      'CREATE UNIQUE INDEX e ON some_schema.portal_objects USING gist (footprint)',
      'CREATE INDEX f ON unknown_table (x)',
    ];
    expect(
      costliestFirst(statements, bytes).map((s) => /INDEX (?:IF NOT EXISTS )?(\w+)/.exec(s)?.[1]),
    ).toEqual(['b', 'e', 'c', 'a', 'd', 'users_email', 'f']);
  });
});
