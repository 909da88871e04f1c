import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { catalogPageSchema, catalogRecordSchema, createdObjectSchema } from '@portal/contracts';
import { call, createCatalog, expectCommand, expectMatchesContract, link } from './support/http.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

describe('catalogs', () => {
  it('creates a catalog and reads it back at once', async () => {
    const created = await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
      body: { title: 'Sentinel-2 mosaics', description: 'Yearly cloud-free mosaics', links: [link()] },
    });
    await expectCommand(created, 201, 'create catalog');
    expectMatchesContract(createdObjectSchema, created.body);
    expect(created.headers.get('etag')).toBe('"0"');
    expect(created.headers.get('x-event-position')).toMatch(/^\d+\.\d+$/);
    const id = created.body.portalItemId;

    const read = await call('GET', `/api/v1/portal/catalogs/${id}`);
    expect(read.status).toBe(200);
    expectMatchesContract(catalogRecordSchema, read.body);
    expect(read.body).toMatchObject({
      id,
      kind: 'catalog',
      title: 'Sentinel-2 mosaics',
      description: 'Yearly cloud-free mosaics',
      parentId: null,
      slug: 'sentinel-2-mosaics',
      depth: 1,
      childCount: 0,
      revision: 0,
      links: [link()],
    });
  });

  it('nests a catalog and counts it as a child', async () => {
    const parentId = await createCatalog({ title: 'Parent' });
    const childId = await createCatalog({ title: 'Child', parentId });
    const child = await call('GET', `/api/v1/portal/catalogs/${childId}`);
    expect(child.body).toMatchObject({ parentId, depth: 2 });
    const parent = await call('GET', `/api/v1/portal/catalogs/${parentId}`);
    expect(parent.body).toMatchObject({ childCount: 1 });
  });

  it('refuses a parent that does not exist', async () => {
    const response = await call('POST', '/api/v1/portal/catalogs/create', {
      body: { title: 'Orphan', description: 'x', links: [], parentId: randomUUID() },
    });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'PARENT_NOT_FOUND' });
  });

  it('lists catalogs page by page without gaps or duplicates', async () => {
    const parentId = await createCatalog({ title: 'Listing parent' });
    const ids = new Set<string>();
    for (let index = 0; index < 5; index += 1)
      ids.add(await createCatalog({ title: `Child ${index}`, parentId }));

    const seen: string[] = [];
    let path: string | null = `/api/v1/portal/catalogs/?parentId=${parentId}&limit=2`;
    while (path) {
      const page: {
        status: number;
        body: { items: { id: string }[]; next: string | null; links: { rel: string; href: string }[] };
      } = await call('GET', path);
      expect(page.status).toBe(200);
      expectMatchesContract(catalogPageSchema, page.body);
      seen.push(...page.body.items.map((item) => item.id));
      const next = page.body.links.find((entry) => entry.rel === 'next');
      path = next ? new URL(next.href).pathname + new URL(next.href).search : null;
      expect(next === undefined).toBe(page.body.next === null);
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(ids);
  });

  it('answers 404 for an unknown catalog and 400 for a malformed id', async () => {
    expect((await call('GET', `/api/v1/portal/catalogs/${randomUUID()}`)).status).toBe(404);
    const malformed = await call('GET', '/api/v1/portal/catalogs/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toHaveProperty('message');
  });

  it('deletes catalogs by id, refusing a non-empty one unless recursive', async () => {
    const parentId = await createCatalog({ title: 'Full' });
    const childId = await createCatalog({ title: 'Inside', parentId });
    const loneId = await createCatalog({ title: 'Lone' });

    const refused = await call('DELETE', `/api/v1/portal/catalogs/?ids=${loneId},${parentId}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'NOT_EMPTY' });
    expect((await call('GET', `/api/v1/portal/catalogs/${loneId}`)).status).toBe(200);

    const deleted = await call('DELETE', `/api/v1/portal/catalogs/?ids=${loneId},${parentId}&recursive=true`);
    await expectCommand(deleted, 200, 'delete');
    expect(deleted.body).toEqual({ deleted: [loneId, parentId] });
    for (const id of [loneId, parentId, childId]) {
      expect((await call('GET', `/api/v1/portal/items/${id}`)).status).toBe(404);
    }
  });
});
