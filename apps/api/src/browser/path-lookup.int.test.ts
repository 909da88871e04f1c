import { randomUUID } from 'node:crypto';
import { callerPrincipals, type Role } from '@portal/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { useReadDatabase } from '../../test/support/read-database.js';
import { seedTree, type NodeSpec, type SeededTree } from '../../test/support/seeded-tree.js';
import { HttpProblem } from '../http/problem.js';
import { resolvePath } from './path-lookup.js';

/**
 * Root-level slugs are unique per organization, so one root slug can name public root nodes of several
 * organizations. Path lookup takes the caller's active organization's, else the oldest, and walks below
 * that one only.
 */
const db = useReadDatabase('path_lookup');
const [orgA, orgB, orgC] = [randomUUID(), randomUUID(), randomUUID()];
const creator = randomUUID();
let tree: SeededTree;

// In creation order (seedTree gives each a later `created_at`): B's root is the oldest.
const specs: NodeSpec[] = [
  { key: 'b-data', kind: 'catalog', orgId: orgB, visibility: 'public', createdBy: creator },
  { key: 'b-sub', kind: 'catalog', parent: 'b-data', orgId: orgB, visibility: 'public', createdBy: creator },
  { key: 'a-data', kind: 'catalog', orgId: orgA, visibility: 'public', createdBy: creator },
  { key: 'a-sub', kind: 'catalog', parent: 'a-data', orgId: orgA, visibility: 'public', createdBy: creator },
  { key: 'c-data', kind: 'catalog', orgId: orgC, visibility: 'private', createdBy: creator },
];

beforeAll(async () => {
  tree = await seedTree(db.pool, specs);
  // What the projector allows now: the same slug at the root level of three organizations, and the same
  // slug below two different parents.
  const ids = (...keys: string[]) => keys.map((key) => tree.node(key).id);
  await db.pool.query(`UPDATE read.portal_objects SET slug = 'data' WHERE id = ANY($1::uuid[])`, [
    ids('a-data', 'b-data', 'c-data'),
  ]);
  await db.pool.query(`UPDATE read.portal_objects SET slug = 'sub' WHERE id = ANY($1::uuid[])`, [
    ids('a-sub', 'b-sub'),
  ]);
});

interface Asking {
  readonly principals: readonly string[];
  readonly activeOrgId: string | null;
}

const anonymous: Asking = {
  principals: callerPrincipals({ userId: null, orgId: null, role: null }),
  activeOrgId: null,
};
const memberOf = (orgId: string, role: Role): Asking => ({
  principals: callerPrincipals({ userId: randomUUID(), orgId, role }),
  activeOrgId: orgId,
});

async function resolved(slugs: string[], asking: Asking): Promise<string> {
  const node = await resolvePath(db.pool, slugs, asking.principals, asking.activeOrgId);
  return tree.keyOf(node.id);
}

describe('path lookup at the root level', () => {
  it("prefers the root node of the caller's active organization, and walks below it", async () => {
    const viewerA = memberOf(orgA, 'viewer');
    expect(await resolved(['data'], viewerA)).toBe('a-data');
    expect(await resolved(['data', 'sub'], viewerA)).toBe('a-sub');
  });

  it('else takes the oldest root node the caller can see', async () => {
    for (const asking of [anonymous, memberOf(orgC, 'viewer'), memberOf(randomUUID(), 'owner')]) {
      expect(await resolved(['data'], asking)).toBe('b-data');
      expect(await resolved(['data', 'sub'], asking)).toBe('b-sub');
    }
  });

  it('never prefers a root node of the active organization the caller cannot see', async () => {
    // C's root is private: a viewer of C does not see it (above); an admin of C does, and gets it.
    const adminC = memberOf(orgC, 'admin');
    expect(await resolved(['data'], adminC)).toBe('c-data');
    // Below the root node it took, not below another organization's.
    let problem: unknown = null;
    try {
      await resolved(['data', 'sub'], adminC);
    } catch (error) {
      problem = error;
    }
    expect(problem).toBeInstanceOf(HttpProblem);
    expect(problem).toMatchObject({
      status: 404,
      message: 'path segment 2 "sub" names no node under "data"',
    });
  });

  it('breaks a tie on the creation time by the id', async () => {
    const [first, second] = [tree.node('a-data').id, tree.node('b-data').id].sort();
    await db.pool.query(
      `UPDATE read.portal_objects SET created_at = '2026-01-01T00:00:00Z' WHERE id = ANY($1::uuid[])`,
      [[first, second]],
    );
    const oldest = await resolvePath(db.pool, ['data'], anonymous.principals, null);
    expect(oldest.id).toBe(first);
    expect((await resolvePath(db.pool, ['data'], anonymous.principals, orgB)).id).toBe(
      tree.node('b-data').id,
    );
  });
});
