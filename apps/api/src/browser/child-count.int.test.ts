import { randomUUID } from 'node:crypto';
import { callerPrincipals } from '@portal/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { useReadDatabase } from '../../test/support/read-database.js';
import { seedTree, type NodeSpec, type SeededTree } from '../../test/support/seeded-tree.js';
import type { ModelCaller, ModelShare, ModelVisibility } from '../../test/support/visibility-model.js';
import { findNode, listNodes } from './node-queries.js';

const db = useReadDatabase('child_count');
const orgA = randomUUID();
const alice = randomUUID();
const victor = randomUUID();
const eve = randomUUID();
const toEve: ModelShare = { principal: { type: 'user', id: eve }, permission: 'viewer' };

/**
 * A wide node whose children take every visibility, some of them the reader's own and some shared,
 * under a public parent and under an org one: where the stored count is wrong for everyone but admins.
 */
function wideNode(key: string, visibility: ModelVisibility): NodeSpec[] {
  const parent: NodeSpec = { key, kind: 'catalog', orgId: orgA, visibility, createdBy: alice };
  const children = Array.from({ length: 240 }, (_, index): NodeSpec => {
    const kinds: ModelVisibility[] = ['public', 'public', 'org', 'private', 'private', 'org'];
    return {
      key: `${key}-${index}`,
      kind: 'item',
      parent: key,
      orgId: orgA,
      visibility: kinds[index % kinds.length] ?? 'public',
      createdBy: index % 4 === 0 ? victor : alice,
      ...(index % 7 === 0 ? { shares: [toEve] } : {}),
    };
  });
  return [parent, ...children];
}

const callers = Object.entries<ModelCaller>({
  anonymous: { userId: null, orgId: null, role: null },
  'alice, admin': { userId: alice, orgId: orgA, role: 'admin' },
  'victor, viewer': { userId: victor, orgId: orgA, role: 'viewer' },
  'eve, outsider with shares': { userId: eve, orgId: randomUUID(), role: 'owner' },
});
let tree: SeededTree;

beforeAll(async () => {
  tree = await seedTree(db.pool, [...wideNode('public-wide', 'public'), ...wideNode('org-wide', 'org')]);
});

describe.each(callers)('child counts of wide nodes as %s', (_who, caller) => {
  const principals = callerPrincipals(caller);
  const expected = (key: string) => tree.node(key).children.filter((child) => tree.visibleTo(caller, child));

  it('count the visible children exactly, prepared statement run past its generic-plan switch', async () => {
    for (const key of ['public-wide', 'org-wide']) {
      // PostgreSQL plans a prepared statement generically from its sixth run: both plans must agree.
      for (let run = 0; run < 7; run += 1) {
        const node = await findNode(db.pool, tree.node(key).id, principals);
        expect([key, run, node?.childCount ?? null]).toEqual([
          key,
          run,
          tree.visibleTo(caller, key) ? expected(key).length : null,
        ]);
      }
    }
  });

  it('agree with the root level page and with the children actually listed', async () => {
    const root = await listNodes(db.pool, null, { limit: 10, sort: 'kind', order: 'asc' }, principals);
    for (const row of root.rows) {
      const key = tree.keyOf(row.id);
      const listed: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listNodes(
          db.pool,
          row.id,
          { limit: 100, sort: 'title', order: 'asc', cursor },
          principals,
        );
        listed.push(...page.rows.map((child) => tree.keyOf(child.id)));
        cursor = page.next ?? undefined;
      } while (cursor !== undefined);
      expect([key, row.child_count, listed.length]).toEqual([
        key,
        expected(key).length,
        expected(key).length,
      ]);
    }
  });
});

describe('the wide nodes have teeth', () => {
  it('hide some children from every caller but the admin', () => {
    for (const [who, caller] of callers) {
      const hidden = tree.node('public-wide').children.filter((child) => !tree.visibleTo(caller, child));
      expect([who, hidden.length > 0]).toEqual([who, !who.startsWith('alice')]);
    }
  });
});
