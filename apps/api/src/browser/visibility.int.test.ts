import { beforeAll, describe, expect, it } from 'vitest';
import { accessScenario } from '../../test/support/access-scenario.js';
import { useReadDatabase } from '../../test/support/read-database.js';
import { seedTree, type SeededTree } from '../../test/support/seeded-tree.js';
import { HttpProblem } from '../http/problem.js';
import { breadcrumbsOf } from './breadcrumbs.js';
import { findNode, listNodes, type NodeListing } from './node-queries.js';
import { resolvePath } from './path-lookup.js';

const db = useReadDatabase('browser_visibility');
const { specs, callers } = accessScenario();
let tree: SeededTree;

beforeAll(async () => {
  tree = await seedTree(db.pool, specs);
});

const byKind: NodeListing = { limit: 2, sort: 'kind', order: 'asc' };

/** Every page of a listing, followed to its end (small pages: the visibility must hold across cursors). */
async function allChildren(parentId: string | null, principals: readonly string[], listing = byKind) {
  const keys: string[] = [];
  const counts = new Map<string, number>();
  let cursor: string | undefined;
  do {
    const page = await listNodes(db.pool, parentId, { ...listing, cursor }, principals);
    for (const row of page.rows) {
      keys.push(tree.keyOf(row.id));
      counts.set(tree.keyOf(row.id), row.child_count);
    }
    cursor = page.next ?? undefined;
  } while (cursor !== undefined);
  return { keys, counts };
}

const sorted = (keys: Iterable<string>) => [...keys].sort();
const rootKeys = () => specs.filter((spec) => spec.parent === undefined).map((spec) => spec.key);
const visibleChildren = (principals: readonly string[], key: string) =>
  tree.node(key).children.filter((child) => tree.visibleTo(principals, child));
/** The first object on the path to `key` (itself included) that the caller cannot see, if any. */
const firstHidden = (principals: readonly string[], key: string) =>
  [...tree.node(key).ancestors, key].find((step) => !tree.visibleTo(principals, step));

async function pathProblem(slugs: string[], principals: readonly string[]): Promise<HttpProblem | null> {
  try {
    await resolvePath(db.pool, slugs, principals, null);
    return null;
  } catch (error) {
    if (error instanceof HttpProblem) return error;
    throw error;
  }
}

describe.each(callers)('the browser as %s', (_who, principals) => {
  it('lists at the root level exactly the root objects the caller can see', async () => {
    const { keys } = await allChildren(null, principals);
    expect(sorted(keys)).toEqual(sorted(rootKeys().filter((key) => tree.visibleTo(principals, key))));
  });

  it('counts in childCount only the children the caller can see, at the root level too', async () => {
    const { counts } = await allChildren(null, principals);
    for (const [key, count] of counts)
      expect([key, count]).toEqual([key, visibleChildren(principals, key).length]);
  });

  it('answers a visible node with its visible children, in every order, and nothing for a hidden one', async () => {
    for (const { spec, id } of tree.nodes.values()) {
      const node = await findNode(db.pool, id, principals);
      if (!tree.visibleTo(principals, spec.key)) {
        expect([spec.key, node]).toEqual([spec.key, null]);
        continue;
      }
      const expected = visibleChildren(principals, spec.key);
      expect([spec.key, node?.childCount, node?.hasChildren]).toEqual([
        spec.key,
        expected.length,
        expected.length > 0,
      ]);
      for (const listing of [byKind, { limit: 1, sort: 'updatedAt', order: 'desc' } as const]) {
        const { keys, counts } = await allChildren(id, principals, listing);
        expect([spec.key, sorted(keys)]).toEqual([spec.key, sorted(expected)]);
        for (const [key, count] of counts)
          expect([key, count]).toEqual([key, visibleChildren(principals, key).length]);
      }
    }
  });

  it('gives a node a path only when the caller can see every ancestor', async () => {
    for (const { spec, id, ancestors } of tree.nodes.values()) {
      if (!tree.visibleTo(principals, spec.key)) continue;
      const node = await findNode(db.pool, id, principals);
      const hidden = firstHidden(principals, spec.key);
      expect([spec.key, node?.path]).toEqual([spec.key, hidden ? null : [...ancestors, spec.key].join('/')]);
    }
  });

  it('leaves hidden ancestors out of the breadcrumbs, and the paths below them', async () => {
    for (const { spec, id, ancestors } of tree.nodes.values()) {
      const crumbs = await breadcrumbsOf(db.pool, id, principals);
      if (!tree.visibleTo(principals, spec.key)) {
        expect([spec.key, crumbs]).toEqual([spec.key, null]);
        continue;
      }
      const steps = [...ancestors, spec.key];
      const expected = steps.flatMap((step, index) => {
        if (!tree.visibleTo(principals, step)) return [];
        const above = steps.slice(0, index + 1);
        const broken = above.some((key) => !tree.visibleTo(principals, key));
        return [{ key: step, path: broken ? null : above.join('/') }];
      });
      expect([spec.key, crumbs?.map((crumb) => ({ key: tree.keyOf(crumb.id), path: crumb.path }))]).toEqual([
        spec.key,
        expected,
      ]);
    }
  });

  it('resolves a path only through visible objects; a hidden segment answers as a missing one', async () => {
    for (const { spec, ancestors } of tree.nodes.values()) {
      const slugs = [...ancestors, spec.key];
      const hidden = firstHidden(principals, spec.key);
      const problem = await pathProblem(slugs, principals);
      if (hidden === undefined) {
        expect([spec.key, problem]).toEqual([spec.key, null]);
        const node = await resolvePath(db.pool, slugs, principals, null);
        expect(node.childCount).toBe(visibleChildren(principals, spec.key).length);
        continue;
      }
      const position = slugs.indexOf(hidden);
      const missing = [...slugs.slice(0, position), 'no-such-slug', ...slugs.slice(position + 1)];
      const absent = await pathProblem(missing, principals);
      expect(problem?.status).toBe(404);
      expect(problem?.message).toBe(absent?.message.replace('"no-such-slug"', `"${hidden}"`));
      expect(problem?.code).toBe(absent?.code);
    }
  });
});

describe('what each caller sees (the scenario, spelled out)', () => {
  const seen = async (principals: readonly string[]) => {
    const keys: string[] = [];
    for (const { id, spec } of tree.nodes.values()) {
      if (await findNode(db.pool, id, principals)) keys.push(spec.key);
    }
    return sorted(keys);
  };

  it('matches the access rules for a few callers, named', async () => {
    const [anonymous, alice, victor, eve, olga] = callers.map(([, principals]) => principals);
    const publicOnes = ['legacy', 'legacy-item', 'pub', 'pub-item-1', 'pub-item-2'];
    expect(await seen(anonymous ?? [])).toEqual(publicOnes);
    expect(await seen(olga ?? [])).toEqual(publicOnes);
    expect(await seen(eve ?? [])).toEqual(
      sorted([...publicOnes, 'shared-item', 'team-b-share', 'b-readable', 'b-root', 'b-item']),
    );
    expect(await seen(victor ?? [])).toEqual(
      sorted([
        ...publicOnes,
        'org-coll',
        'org-item',
        'victor-draft',
        'victor-own',
        'org-root',
        'org-root-item',
      ]),
    );
    expect(await seen(alice ?? [])).toEqual(
      sorted([...tree.nodes.keys()].filter((key) => key !== 'b-root' && key !== 'b-item')),
    );
  });
});
