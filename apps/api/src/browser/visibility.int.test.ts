import { callerPrincipals } from '@portal/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessScenario } from '../../test/support/access-scenario.js';
import { useReadDatabase } from '../../test/support/read-database.js';
import { seedTree, type SeededTree } from '../../test/support/seeded-tree.js';
import type { ModelCaller } from '../../test/support/visibility-model.js';
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
const visibleChildren = (caller: ModelCaller, key: string) =>
  tree.node(key).children.filter((child) => tree.visibleTo(caller, child));
/** The first object on the path to `key` (itself included) that the caller cannot see, if any. */
const firstHidden = (caller: ModelCaller, key: string) =>
  [...tree.node(key).ancestors, key].find((step) => !tree.visibleTo(caller, step));

async function pathProblem(slugs: string[], principals: readonly string[]): Promise<HttpProblem | null> {
  try {
    await resolvePath(db.pool, slugs, principals, null);
    return null;
  } catch (error) {
    if (error instanceof HttpProblem) return error;
    throw error;
  }
}

describe.each(callers)('the browser as %s', (_who, caller) => {
  const principals = callerPrincipals(caller);

  it('lists at the root level exactly the root objects the caller can see', async () => {
    const { keys } = await allChildren(null, principals);
    expect(sorted(keys)).toEqual(sorted(rootKeys().filter((key) => tree.visibleTo(caller, key))));
  });

  it('counts in childCount only the children the caller can see, at the root level too', async () => {
    const { counts } = await allChildren(null, principals);
    for (const [key, count] of counts)
      expect([key, count]).toEqual([key, visibleChildren(caller, key).length]);
  });

  it('answers a visible node with its visible children, in every order, and nothing for a hidden one', async () => {
    for (const { spec, id } of tree.nodes.values()) {
      const node = await findNode(db.pool, id, principals);
      if (!tree.visibleTo(caller, spec.key)) {
        expect([spec.key, node]).toEqual([spec.key, null]);
        continue;
      }
      const expected = visibleChildren(caller, spec.key);
      expect([spec.key, node?.childCount, node?.hasChildren]).toEqual([
        spec.key,
        expected.length,
        expected.length > 0,
      ]);
      for (const listing of [byKind, { limit: 1, sort: 'updatedAt', order: 'desc' } as const]) {
        const { keys, counts } = await allChildren(id, principals, listing);
        expect([spec.key, sorted(keys)]).toEqual([spec.key, sorted(expected)]);
        for (const [key, count] of counts)
          expect([key, count]).toEqual([key, visibleChildren(caller, key).length]);
      }
    }
  });

  it('gives a node a path only when the caller can see every ancestor', async () => {
    for (const { spec, id, ancestors } of tree.nodes.values()) {
      if (!tree.visibleTo(caller, spec.key)) continue;
      const node = await findNode(db.pool, id, principals);
      const hidden = firstHidden(caller, spec.key);
      expect([spec.key, node?.path]).toEqual([spec.key, hidden ? null : [...ancestors, spec.key].join('/')]);
    }
  });

  it('leaves hidden ancestors out of the breadcrumbs, and the paths below them', async () => {
    for (const { spec, id, ancestors } of tree.nodes.values()) {
      const crumbs = await breadcrumbsOf(db.pool, id, principals);
      if (!tree.visibleTo(caller, spec.key)) {
        expect([spec.key, crumbs]).toEqual([spec.key, null]);
        continue;
      }
      const steps = [...ancestors, spec.key];
      const expected = steps.flatMap((step, index) => {
        if (!tree.visibleTo(caller, step)) return [];
        const above = steps.slice(0, index + 1);
        const broken = above.some((key) => !tree.visibleTo(caller, key));
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
      const hidden = firstHidden(caller, spec.key);
      const problem = await pathProblem(slugs, principals);
      if (hidden === undefined) {
        expect([spec.key, problem]).toEqual([spec.key, null]);
        const node = await resolvePath(db.pool, slugs, principals, null);
        expect(node.childCount).toBe(visibleChildren(caller, spec.key).length);
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
  const publicOnes = ['legacy', 'legacy-item', 'pub', 'pub-item-1', 'pub-item-2'];
  /** By hand, caller by caller, in the order of `accessScenario`'s callers. */
  const expected = (): string[][] => [
    publicOnes,
    [...tree.nodes.keys()].filter((key) => key !== 'b-root' && key !== 'b-item'),
    [...publicOnes, 'org-coll', 'org-item', 'victor-draft', 'victor-own', 'org-root', 'org-root-item'],
    // Not 'not-for-b' nor what is below it: private on its own, below the share to B.
    [
      ...publicOnes,
      'shared-item',
      'team-b-share',
      'b-readable',
      'eve-private-share',
      'eve-private-item',
      'b-root',
      'b-item',
    ],
    publicOnes,
  ];

  it('is what the visibility model says, so the model is checked too', () => {
    expect(
      callers.map(([, caller]) =>
        sorted([...tree.nodes.keys()].filter((key) => tree.visibleTo(caller, key))),
      ),
    ).toEqual(expected().map(sorted));
  });

  it('is what the read model shows each caller', async () => {
    const seen = async (principals: readonly string[]) => {
      const keys: string[] = [];
      for (const { id, spec } of tree.nodes.values()) {
        if (await findNode(db.pool, id, principals)) keys.push(spec.key);
      }
      return sorted(keys);
    };
    const shown: string[][] = [];
    for (const [, caller] of callers) shown.push(await seen(callerPrincipals(caller)));
    expect(shown).toEqual(expected().map(sorted));
  });
});
