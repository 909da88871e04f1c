import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inventoryPageSchema, type InventoryEntry, type InventoryPage } from '@portal/contracts';
import {
  createMany,
  createInTurn,
  pageAll,
  pageWhileDeleting,
  waitForProjection,
} from './support/browser-tree.js';
import {
  call,
  createCatalog,
  createCollection,
  expectCommand,
  expectMatchesContract,
} from './support/http.js';
import { createItem, fileOf, uploadParts, waitForStatus } from './support/uploads.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

const inventory = (query = '', headers: Record<string, string> = {}) =>
  call<InventoryPage>('GET', `/api/v1/portal/inventory/${query}`, { headers });

/** A container with 3 catalogs and 4 collections inside, some of them carrying `token` in their text. */
async function smallPortal(token: string): Promise<{ parent: string; ids: string[] }> {
  const parent = await createCatalog({ title: `Inventory ${token}` });
  // One request each: the tests below sort by `createdAt`, and one batch's commands share its instant.
  const made = await createInTurn(
    [
      ['createCatalog', 'Roads', `Every road, ${token} included`],
      ['createCatalog', 'Rivers', 'Hydrography'],
      ['createCatalog', `Rail ${token.toUpperCase()}`, 'Tracks'],
      ['createCollection', 'Orthophotos 2024', 'Aerial images'],
      ['createCollection', 'Orthophotos 2023', `Older ${token}`],
      ['createCollection', 'Elevation', '100% coverage, 5_m grid'],
      ['createCollection', 'Buildings', 'Footprints'],
    ].map(([type, title, description]) => ({
      type: type as 'createCatalog' | 'createCollection',
      body: { title, description, links: [], parentId: parent },
    })),
  );
  await waitForProjection(made.position);
  return { parent, ids: made.ids };
}

describe('inventory', () => {
  it('lists, filters and counts the objects inside a container', async () => {
    const token = `tok${randomUUID().slice(0, 8)}`;
    const { parent, ids } = await smallPortal(token);
    const all = await inventory(`?parentId=${parent}`);
    expect(all.status).toBe(200);
    expectMatchesContract(inventoryPageSchema, all.body);
    expect(all.body.items.map((entry) => entry.title)).toEqual([
      'Buildings',
      'Elevation',
      'Orthophotos 2023',
      'Orthophotos 2024',
      `Rail ${token.toUpperCase()}`,
      'Rivers',
      'Roads',
    ]);
    expect(new Set(all.body.items.map((entry) => entry.id))).toEqual(new Set(ids));
    expect(all.body.items[0]).toMatchObject({
      kind: 'collection',
      status: 'ready',
      description: 'Footprints',
      parentId: parent,
      depth: 2,
      childCount: 0,
      assetBytes: 0,
    });
    expect(all.body.totals).toEqual({
      objects: 7,
      byKind: { catalog: 3, collection: 4, item: 0 },
      byStatus: { uploading: 0, processing: 0, ready: 7, failed: 0, aborted: 0, expired: 0 },
      assetBytes: 0,
    });

    const catalogs = await inventory(`?parentId=${parent}&kind=catalog&sort=title&order=desc`);
    expect(catalogs.body.items.map((entry) => entry.title)).toEqual([
      'Roads',
      'Rivers',
      `Rail ${token.toUpperCase()}`,
    ]);
    expect(catalogs.body.totals).toMatchObject({ objects: 3, byKind: { catalog: 3, collection: 0 } });
    const kinds = await inventory(`?parentId=${parent}&sort=kind&limit=4`);
    expect(kinds.body.items.map((entry) => entry.kind)).toEqual([
      'catalog',
      'catalog',
      'catalog',
      'collection',
    ]);
    const newest = await inventory(`?parentId=${parent}&sort=createdAt&order=desc&limit=1`);
    expect(newest.body.items.map((entry) => entry.title)).toEqual(['Buildings']);
    expect(newest.body.totals.objects).toBe(7);
  });

  it('searches titles and descriptions for the text as written, in any case', async () => {
    const token = `tok${randomUUID().slice(0, 8)}`;
    const { parent } = await smallPortal(token);
    const titles = async (query: string) => {
      const response = await inventory(query);
      expect(response.status, query).toBe(200);
      return response.body;
    };
    // Titles (one in capitals) and descriptions; everywhere in the portal, not only below the parent.
    const found = await titles(`?q=${token.toUpperCase()}`);
    expect(found.items.map((entry) => entry.title)).toEqual([
      `Inventory ${token}`,
      'Orthophotos 2023',
      `Rail ${token.toUpperCase()}`,
      'Roads',
    ]);
    expect(found.totals).toMatchObject({ objects: 4, byKind: { catalog: 3, collection: 1, item: 0 } });
    expect((await titles(`?q=${token}&kind=collection`)).items.map((entry) => entry.title)).toEqual([
      'Orthophotos 2023',
    ]);
    // LIKE wildcards are literal text.
    const literal = await titles(`?parentId=${parent}&q=${encodeURIComponent('100%')}`);
    expect(literal.items.map((entry) => entry.title)).toEqual(['Elevation']);
    expect((await titles(`?parentId=${parent}&q=5_m`)).items.map((entry) => entry.title)).toEqual([
      'Elevation',
    ]);
    expect((await titles(`?parentId=${parent}&q=${encodeURIComponent('0%c')}`)).items).toEqual([]);
    expect((await titles(`?parentId=${parent}&q=5%5Fm`)).totals.objects).toBe(1);
    // Not across the seam of title and description.
    expect(
      (await titles(`?parentId=${parent}&q=${encodeURIComponent('Buildings Footprints')}`)).items,
    ).toEqual([]);
  });

  it('pages to the end with the same totals on every page', async () => {
    const token = `tok${randomUUID().slice(0, 8)}`;
    const { parent } = await smallPortal(token);
    const totals: unknown[] = [];
    const entries = await pageAll<InventoryEntry>(
      `/api/v1/portal/inventory/?parentId=${parent}&limit=2&sort=updatedAt&order=desc`,
      (page) => {
        totals.push((page as unknown as InventoryPage).totals);
      },
    );
    expect(entries).toHaveLength(7);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(7);
    expect(totals).toHaveLength(4);
    expect(new Set(totals.map((value) => JSON.stringify(value))).size).toBe(1);
    const first = await inventory(`?parentId=${parent}&limit=2&kind=catalog&kind=collection`);
    const next = new URL(first.body.links[0]?.href ?? '');
    expect(next.pathname).toBe('/api/v1/portal/inventory/');
    expect(Object.fromEntries(next.searchParams)).toMatchObject({
      parentId: parent,
      kind: 'catalog,collection',
      sort: 'title',
      limit: '2',
    });
  });

  it('keeps the portal-wide totals equal to what a walk through every page counts', async () => {
    const before = await inventory('?limit=1');
    const made = await createMany(
      [{ type: 'createCatalog', body: { title: `Totals ${randomUUID()}`, description: 'x', links: [] } }],
      1,
    );
    const after = await inventory('?limit=1', { 'x-min-position': made.position ?? '' });
    expect(after.body.totals.objects).toBe(before.body.totals.objects + 1);
    expect(after.body.totals.byKind.catalog).toBe(before.body.totals.byKind.catalog + 1);

    const everything = await pageAll<InventoryEntry>('/api/v1/portal/inventory/?limit=1000&sort=createdAt');
    const walked = { objects: everything.length, catalog: 0, collection: 0, item: 0, ready: 0 };
    for (const entry of everything) {
      walked[entry.kind] += 1;
      if (entry.status === 'ready') walked.ready += 1;
    }
    const { totals } = (await inventory('?limit=1')).body;
    expect({
      objects: totals.objects,
      catalog: totals.byKind.catalog,
      collection: totals.byKind.collection,
      item: totals.byKind.item,
      ready: totals.byStatus.ready,
    }).toEqual(walked);
    const onlyCollections = await inventory('?limit=1&kind=collection&status=ready');
    expect(onlyCollections.body.totals.objects).toBe(walked.collection);

    const id = made.ids[0] ?? '';
    const removed = await call('DELETE', `/api/v1/portal/items/${id}`);
    await expectCommand(removed, 200, 'delete');
    expect((await inventory('?limit=1')).body.totals.objects).toBe(before.body.totals.objects);
  });

  for (const query of ['', '&sort=updatedAt&order=desc']) {
    it(`pages on past deleted rows, each once${query ? ` (${query.slice(1)})` : ''}`, async () => {
      const parent = await createCatalog({ title: `Shrinking ${randomUUID().slice(0, 8)}` });
      const made = await createMany(
        Array.from({ length: 60 }, (_, n) => ({
          type: n % 3 === 0 ? ('createCatalog' as const) : ('createCollection' as const),
          body: { title: `Row ${randomUUID()}`, description: 'x', links: [], parentId: parent },
        })),
        1,
      );
      await waitForProjection(made.position);

      const paged = await pageWhileDeleting(`/api/v1/portal/inventory/?parentId=${parent}&limit=10${query}`);

      expect(new Set(paged.before)).toEqual(new Set(made.ids));
      expect(paged.deletedAhead.size).toBeGreaterThan(0);
      expect(paged.listed).toEqual(paged.before.filter((id) => !paged.deletedAhead.has(id)));
    });
  }

  it('lists items with their upload status and counts the bytes of their assets', async () => {
    const before = (await inventory('?limit=1')).body.totals;
    const collection = await createCollection({ title: `Uploads ${randomUUID().slice(0, 8)}` });
    const file = fileOf(1000);
    const done = await createItem({
      title: 'Done',
      parentId: collection,
      size: file.length,
      fileName: 'a.bin',
    });
    const parts = await uploadParts(done, file);
    const completed = await call('POST', `/api/v1/portal/items/${done.portalItemId}/upload/complete`, {
      body: { parts },
    });
    expect(completed.status).toBe(202);
    const pending = await createItem({ title: 'Pending', parentId: collection, size: 10 });
    expect((await waitForStatus(done.portalItemId, ['ready', 'failed'])).status).toBe('ready');

    const page = await inventory(`?parentId=${collection}`);
    expect(page.body.items.map((entry) => [entry.id, entry.kind, entry.status, entry.assetBytes])).toEqual([
      [done.portalItemId, 'item', 'ready', 1000],
      [pending.portalItemId, 'item', 'uploading', 0],
    ]);
    expect(page.body.totals).toMatchObject({
      objects: 2,
      byKind: { item: 2 },
      byStatus: { ready: 1, uploading: 1 },
      assetBytes: 1000,
    });
    // The portal-wide totals (kept by the projector) moved by exactly the same.
    const after = (await inventory('?limit=1')).body.totals;
    expect(after.objects - before.objects).toBe(3);
    expect(after.byKind.item - before.byKind.item).toBe(2);
    expect(after.byStatus.uploading - before.byStatus.uploading).toBe(1);
    expect(after.assetBytes - before.assetBytes).toBe(1000);
    const readyItems = await inventory('?limit=1&kind=item&status=ready');
    expect(readyItems.body.totals.assetBytes).toBe(after.assetBytes);

    const view = await call<{ items: { id: string; status: string; hasChildren: boolean }[] }>(
      'GET',
      `/api/v1/browser/nodes/${collection}/children?kind=item&status=ready`,
    );
    expect(view.body.items).toEqual([expect.objectContaining({ id: done.portalItemId, hasChildren: false })]);

    // A deleted item takes its bytes out of the totals.
    await expectCommand(await call('DELETE', `/api/v1/portal/items/${done.portalItemId}`), 200, 'delete');
    expect((await inventory('?limit=1')).body.totals.assetBytes).toBe(before.assetBytes);
  });

  it('answers 400 naming a bad filter, sort or cursor, and 405 to other methods', async () => {
    for (const query of [
      '?kind=folder',
      '?status=done',
      '?sort=size',
      '?order=sideways',
      '?parentId=nope',
      '?q=',
      `?q=${'x'.repeat(201)}`,
      '?q=%00',
      '?limit=1001',
      '?cursor=%7B%7D',
    ]) {
      const response = await inventory(query);
      expect(response.status, query).toBe(400);
      expect(typeof (response.body as unknown as { message: unknown }).message, query).toBe('string');
    }
    const page = await inventory('?limit=1');
    const mismatch = await inventory(`?limit=1&sort=createdAt&cursor=${page.body.next ?? ''}`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ code: 'CURSOR_ORDER_MISMATCH' });
    const post = await call('POST', '/api/v1/portal/inventory/', { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
