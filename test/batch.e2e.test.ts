import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, createCollection, expectCommand } from './support/http.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

interface BatchResponse {
  results: { status: number; body: { portalItemId?: string; message?: string; code?: string } }[];
}

describe('POST / runs a batch of creates in order', () => {
  it('answers one result per command, a refused one not stopping the others', async () => {
    const response = await call<BatchResponse>('POST', '/', {
      body: {
        commands: [
          { type: 'createCatalog', body: { title: 'Batch root', description: 'x', links: [] } },
          {
            type: 'createCollection',
            body: { title: 'Orphan', description: 'x', links: [], parentId: randomUUID() },
          },
          { type: 'createCollection', body: { title: 'Batch collection', description: 'x', links: [] } },
        ],
      },
    });
    await expectCommand(response, 200, 'batch');
    expect(response.body.results.map((result) => result.status)).toEqual([201, 409, 201]);
    expect(response.body.results[1]?.body.code).toBe('PARENT_NOT_FOUND');
    const collectionId = response.body.results[2]?.body.portalItemId;
    expect((await call('GET', `/api/v1/collections/${collectionId ?? ''}`)).status).toBe(200);
  });

  it('creates items in a batch, each answering its upload descriptor', async () => {
    const parentId = await createCollection({ title: 'Batch items', description: 'x' });
    const response = await call<{ results: { status: number; body: Record<string, unknown> }[] }>(
      'POST',
      '/',
      {
        body: {
          commands: [
            { type: 'createItem', body: { title: 'Scene A', links: [], parentId, size: 10 } },
            { type: 'createItem', body: { title: 'Scene B', links: [], parentId: randomUUID(), size: 10 } },
          ],
        },
      },
    );
    await expectCommand(response, 200, 'batch');
    expect(response.body.results.map((result) => result.status)).toEqual([201, 409]);
    const descriptor = response.body.results[0]?.body ?? {};
    expect(Object.keys(descriptor).sort()).toEqual([
      'bucket',
      'key',
      'partSize',
      'partUrls',
      'portalItemId',
      'uploadId',
    ]);
    const item = await call('GET', `/api/v1/portal/items/${String(descriptor['portalItemId'])}`);
    expect(item.body).toMatchObject({ status: 'uploading', kind: 'item', parentId });
  });

  it('refuses an invalid batch as a whole with 400 and creates nothing', async () => {
    const uniqueTitle = `Would be created ${randomUUID()}`;
    const response = await call('POST', '/', {
      body: {
        commands: [
          { type: 'createCatalog', body: { title: uniqueTitle, description: 'x', links: [] } },
          { type: 'createCatalog', body: { title: 'x'.repeat(141), description: 'x', links: [] } },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message).toContain('commands[1].body.title');
    const catalogs = await call<{ items: { title: string }[] }>('GET', '/api/v1/portal/catalogs/?limit=1000');
    expect(catalogs.body.items.map((catalog) => catalog.title)).not.toContain(uniqueTitle);
  });

  it('refuses an empty batch and an unknown command type', async () => {
    expect((await call('POST', '/', { body: { commands: [] } })).status).toBe(400);
    const unknown = await call('POST', '/', { body: { commands: [{ type: 'dropEverything', body: {} }] } });
    expect(unknown.status).toBe(400);
  });
});
