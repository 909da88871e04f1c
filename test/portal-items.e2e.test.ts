import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { portalItemRecordSchema } from '@portal/contracts';
import {
  call,
  createCatalog,
  createCollection,
  expectCommand,
  expectMatchesContract,
  link,
} from './support/http.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

describe('portal items: every kind through one path', () => {
  it('answers the portal item record for a catalog, resolving links to portal objects', async () => {
    const target = await createCollection({ title: 'Linked target' });
    const missing = randomUUID();
    const id = await createCatalog({
      title: 'Linker',
      links: [
        link({ href: target, targetType: 'collection', rel: 'related' }),
        link({ href: `/api/v1/portal/items/${missing}`, targetType: 'portal-item', rel: 'related' }),
        link(),
      ],
    });
    const response = await call('GET', `/api/v1/portal/items/${id}`);
    expect(response.status).toBe(200);
    expectMatchesContract(portalItemRecordSchema, response.body);
    expect(response.body).toMatchObject({
      id,
      kind: 'catalog',
      status: 'ready',
      tags: [],
      assets: [],
      bbox: null,
    });
    expect(response.body.links).toHaveLength(3);
    const linked = response.body.linksPortalItems as { id: string; kind: string; status: string }[];
    expect(linked).toEqual([expect.objectContaining({ id: target, kind: 'collection', status: 'ready' })]);
    expect(typeof response.body.createdAt).toBe('string');
    expect(typeof response.body.updatedAt).toBe('string');
  });

  it('updates with If-Match and refuses a stale revision with 412', async () => {
    const id = await createCatalog({ title: 'Before' });
    const updated = await call('PATCH', `/api/v1/portal/items/${id}`, {
      body: { title: 'After' },
      headers: { 'if-match': '"0"' },
    });
    await expectCommand(updated, 200, 'update');
    expect(updated.headers.get('etag')).toBe('"1"');
    const read = await call('GET', `/api/v1/portal/items/${id}`);
    expect(read.body).toMatchObject({ title: 'After', slug: 'after', revision: 1 });
    expect(read.headers.get('etag')).toBe('"1"');

    const stale = await call('PATCH', `/api/v1/portal/items/${id}`, {
      body: { title: 'Lost update' },
      headers: { 'if-match': '"0"' },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toHaveProperty('message');
    expect((await call('GET', `/api/v1/portal/items/${id}`)).body).toMatchObject({ title: 'After' });
  });

  it('lets exactly one of two concurrent updates with the same If-Match through, the other 412', async () => {
    // Several objects at once, so the two updates of each really race on a busy API.
    const ids = await Promise.all(Array.from({ length: 5 }, (_, n) => createCatalog({ title: `Race ${n}` })));
    await Promise.all(
      ids.map(async (id) => {
        const update = (title: string) =>
          call('PATCH', `/api/v1/portal/items/${id}`, { body: { title }, headers: { 'if-match': '"0"' } });
        const answers = await Promise.all([update('First writer'), update('Second writer')]);
        const refused = answers.filter((answer) => answer.status === 412);
        const applied = answers.filter((answer) => answer.status !== 412);
        expect(refused, `${id}: ${answers.map((answer) => answer.status).join(', ')}`).toHaveLength(1);
        expect(refused[0]?.body).toMatchObject({ code: 'STALE_REVISION' });
        const [winner] = applied;
        if (!winner) throw new Error(`${id}: no update was applied`);
        await expectCommand(winner, 200, 'the applied update');
        expect(winner.headers.get('etag')).toBe('"1"');

        const read = await call<{ title: string; revision: number }>('GET', `/api/v1/portal/items/${id}`);
        expect(read.body.revision).toBe(1);
        const history = await call<{ items: { type: string }[] }>(
          'GET',
          `/api/v1/portal/items/${id}/history`,
        );
        expect(history.body.items.map((entry) => entry.type)).toEqual([
          'CatalogCreated',
          'PortalObjectUpdated',
        ]);
        expect(['First writer', 'Second writer']).toContain(read.body.title);
      }),
    );
  });

  it('moves a subtree, updating depth, and refuses a cycle', async () => {
    const a = await createCatalog({ title: 'A' });
    const b = await createCatalog({ title: 'B' });
    const child = await createCatalog({ title: 'Child of A', parentId: a });

    const moved = await call('POST', `/api/v1/portal/items/${a}/move`, { body: { parentId: b } });
    await expectCommand(moved, 200, 'move');
    expect((await call('GET', `/api/v1/portal/catalogs/${child}`)).body).toMatchObject({ depth: 3 });
    expect((await call('GET', `/api/v1/portal/catalogs/${b}`)).body).toMatchObject({ childCount: 1 });

    const cycle = await call('POST', `/api/v1/portal/items/${b}/move`, { body: { parentId: child } });
    expect(cycle.status).toBe(409);
    expect(cycle.body).toMatchObject({ code: 'CYCLE' });

    const backToRoot = await call('POST', `/api/v1/portal/items/${a}/move`, { body: { parentId: null } });
    await expectCommand(backToRoot, 200, 'move to the root');
    expect((await call('GET', `/api/v1/portal/catalogs/${child}`)).body).toMatchObject({ depth: 2 });
  });

  it('deletes one object, refusing a non-empty container unless recursive', async () => {
    const parent = await createCatalog({ title: 'Container' });
    const child = await createCollection({ title: 'Content', parentId: parent });

    const refused = await call('DELETE', `/api/v1/portal/items/${parent}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'NOT_EMPTY' });

    await expectCommand(await call('DELETE', `/api/v1/portal/items/${parent}?recursive=true`), 200, 'delete');
    expect((await call('GET', `/api/v1/portal/items/${parent}`)).status).toBe(404);
    expect((await call('GET', `/api/v1/collections/${child}`)).status).toBe(404);
    const again = await call('PATCH', `/api/v1/portal/items/${child}`, { body: { title: 'Ghost' } });
    expect(again.status).toBe(404);
  });

  it('answers 404 for an unknown object on every verb', async () => {
    const id = randomUUID();
    expect((await call('GET', `/api/v1/portal/items/${id}`)).status).toBe(404);
    expect((await call('PATCH', `/api/v1/portal/items/${id}`, { body: { title: 'x' } })).status).toBe(404);
    expect((await call('DELETE', `/api/v1/portal/items/${id}`)).status).toBe(404);
    expect((await call('POST', `/api/v1/portal/items/${id}/move`, { body: { parentId: null } })).status).toBe(
      404,
    );
  });
});
