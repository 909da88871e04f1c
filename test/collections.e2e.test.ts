import { describe, expect, it } from 'vitest';
import { collectionRecordSchema } from '@portal/contracts';
import { call, createCatalog, createCollection, expectMatchesContract, link } from './support/http.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

describe('collections', () => {
  it('answers the contract collection record with absolute links', async () => {
    const catalogId = await createCatalog({ title: 'Imagery' });
    const id = await createCollection({
      title: 'Landsat 9',
      description: 'Level-2 surface reflectance',
      parentId: catalogId,
      links: [link({ href: '/docs/landsat', rel: 'about', type: 'text/html' })],
    });
    const response = await call('GET', `/api/v1/collections/${id}`);
    expect(response.status).toBe(200);
    expectMatchesContract(collectionRecordSchema, response.body);
    expect(response.body).toMatchObject({
      id,
      type: 'collection',
      title: 'Landsat 9',
      description: 'Level-2 surface reflectance',
      license: 'other',
      keywords: [],
    });
    const extent = response.body.extent as {
      spatial: { bbox: number[][] };
      temporal: { interval: unknown[][] };
    };
    expect(extent.spatial.bbox[0]).toHaveLength(4);
    expect(extent.temporal.interval[0]).toHaveLength(2);
    const links = response.body.links as { href: string; rel: string; type: string }[];
    for (const entry of links) expect(() => new URL(entry.href)).not.toThrow();
    expect(links.find((entry) => entry.rel === 'about')?.href).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/docs\/landsat$/,
    );
    expect(links.find((entry) => entry.rel === 'parent')?.href).toContain(catalogId);
  });

  it('keeps license, keywords and extent given on create', async () => {
    const extent = {
      spatial: { bbox: [[5.9, 45.8, 10.5, 47.8]] },
      temporal: { interval: [['2020-01-01T00:00:00Z', null]] },
    };
    const id = await createCollection({
      title: 'Swiss DEM',
      license: 'CC-BY-4.0',
      keywords: ['dem', 'alps'],
      extent,
    });
    const response = await call('GET', `/api/v1/collections/${id}`);
    expect(response.body).toMatchObject({ license: 'CC-BY-4.0', keywords: ['dem', 'alps'], extent });
  });

  it('refuses a collection inside a collection', async () => {
    const outer = await createCollection({ title: 'Outer' });
    const response = await call('POST', '/api/v1/portal/collections/create', {
      body: { title: 'Inner', description: 'x', links: [], parentId: outer },
    });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'INVALID_PARENT_KIND' });
  });

  it('is not served as a catalog', async () => {
    const id = await createCollection();
    expect((await call('GET', `/api/v1/portal/catalogs/${id}`)).status).toBe(404);
  });
});
