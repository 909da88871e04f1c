import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BrowserChildren, BrowserNode } from '@portal/contracts';
import {
  createMany,
  pageAll,
  pageWhileDeleting,
  waitForProjection,
  type CreateCommand,
} from './support/browser-tree.js';
import { call, createCatalog } from './support/http.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

const CHILDREN = 10_000;

/** Random titles, so children added during the paging land anywhere in the title order. */
const childCommands = (parentId: string, count: number): CreateCommand[] =>
  Array.from({ length: count }, (_, index) => ({
    type: index % 10 === 0 ? 'createCatalog' : 'createCollection',
    body: { title: `Child ${randomUUID()}`, description: 'x', links: [], parentId },
  }));

/** Each node's sort key as the API orders it (ASCII titles: code unit order is byte order). */
const sortKeys: Record<string, (node: BrowserNode) => string[]> = {
  'sort=kind': (node) => [node.kind, node.title, node.id],
  'sort=title&order=desc': (node) => [node.title, node.id],
  'sort=createdAt': (node) => [node.createdAt, node.id],
};

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (const [index, part] of a.entries()) {
    const other = b[index] ?? '';
    if (part !== other) return part < other ? -1 : 1;
  }
  return 0;
}

describe('browser: a node with 10,000 children', () => {
  it(
    'pages every order to the end without gaps or duplicates while new children are being added',
    { timeout: 600_000 },
    async () => {
      const parent = await createCatalog({ title: `Ten thousand ${randomUUID().slice(0, 8)}` });
      const made = await createMany(childCommands(parent, CHILDREN), 4);
      await waitForProjection(made.position);
      const original = new Set(made.ids);

      const added: string[] = [];
      const listings: string[][] = [];
      const stopWriting = new AbortController();
      const writer = (async () => {
        while (!stopWriting.signal.aborted)
          added.push(...(await createMany(childCommands(parent, 25), 1)).ids);
      })();
      try {
        for (const [query, keyOf] of Object.entries(sortKeys)) {
          const seen = await pageAll<BrowserNode>(
            `/api/v1/browser/nodes/${parent}/children?limit=500&${query}`,
          );
          const ids = seen.map((node) => node.id);
          expect(new Set(ids).size, `${query}: duplicates`).toBe(ids.length);
          const listed = new Set(ids);
          expect(
            made.ids.filter((id) => !listed.has(id)),
            `${query}: gaps`,
          ).toEqual([]);
          const direction = query.includes('desc') ? -1 : 1;
          const outOfOrder = seen.findIndex(
            (node, index) =>
              index > 0 && direction * compareKeys(keyOf(seen[index - 1] as BrowserNode), keyOf(node)) >= 0,
          );
          expect(outOfOrder, `${query}: order`).toBe(-1);
          listings.push(ids);
        }
      } finally {
        stopWriting.abort();
        await writer;
      }
      expect(added.length).toBeGreaterThan(0);
      // Only children that exist were listed (checked once the writer has recorded every id it added).
      const known = new Set([...original, ...added]);
      for (const ids of listings) expect(ids.filter((id) => !known.has(id))).toEqual([]);

      // Once the writer stopped and everything is projected, a full walk returns exactly every child.
      const settled = await createMany(childCommands(parent, 1), 1);
      await waitForProjection(settled.position);
      const all = await pageAll<BrowserNode>(`/api/v1/browser/nodes/${parent}/children?limit=1000`);
      expect(all).toHaveLength(CHILDREN + added.length + 1);
      const view = await call<BrowserChildren>('GET', `/api/v1/browser/nodes/${parent}/children?limit=1`);
      expect(view.body.node.childCount).toBe(CHILDREN + added.length + 1);
    },
  );
});

describe('browser: paging while children are deleted', () => {
  for (const query of ['sort=title', 'sort=kind&order=desc', 'sort=createdAt']) {
    it(`${query}: continues past a deleted cursor row and skips deleted rows ahead, listing each once`, async () => {
      const parent = await createCatalog({ title: `Shrinking ${randomUUID().slice(0, 8)}` });
      const made = await createMany(childCommands(parent, 60), 1);
      await waitForProjection(made.position);

      const paged = await pageWhileDeleting(`/api/v1/browser/nodes/${parent}/children?limit=10&${query}`);

      expect(new Set(paged.before)).toEqual(new Set(made.ids));
      expect(paged.deletedAhead.size).toBeGreaterThan(0);
      // Every row not deleted before its page came, once, in the order they had; nothing deleted ahead.
      expect(paged.listed).toEqual(paged.before.filter((id) => !paged.deletedAhead.has(id)));
    });
  }
});
