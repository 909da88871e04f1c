import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { commandOfRecord } from './records.js';

const parentId = randomUUID();

/** The command of a record that makes one. */
function commandOf(...args: Parameters<typeof commandOfRecord>): Record<string, unknown> {
  const command = commandOfRecord(...args);
  if (command === null) throw new Error('the record made no command');
  return command;
}

function feature(fields: Record<string, unknown>) {
  return { type: 'Feature', properties: { datetime: '2026-06-01T00:00:00Z' }, links: [], ...fields };
}

describe('a STAC Item record as a command', () => {
  it('registers its assets by href under its STAC id, relative hrefs resolved against its self link', () => {
    const command = commandOf(
      feature({
        id: 'S2A_tile',
        links: [{ rel: 'self', href: 'https://example.org/tiles/a/item.json' }],
        assets: {
          visual: { href: '../b/visual.tif', roles: ['visual'] },
          meta: { href: 's3://bucket/meta.xml' },
        },
      }),
      parentId,
      'item',
    );
    expect(command).toMatchObject({
      type: 'createItem',
      body: {
        title: 'S2A_tile',
        stacId: 'S2A_tile',
        parentId,
        assets: {
          visual: { href: 'https://example.org/tiles/b/visual.tif', roles: ['visual'] },
          meta: { href: 's3://bucket/meta.xml' },
        },
      },
    });
  });

  it('leaves a relative href as it is without an absolute self link, for the service to refuse', () => {
    const command = commandOf(feature({ id: 'x', assets: { data: { href: 'data.tif' } } }), parentId, 'x');
    expect((command['body'] as { assets: unknown }).assets).toEqual({ data: { href: 'data.tif' } });
  });

  it('names no STAC id for a UUID id, and registers an Item without assets with none', () => {
    const body = commandOf(feature({ id: randomUUID() }), parentId, 'file')['body'] as Record<
      string,
      unknown
    >;
    expect(body['stacId']).toBeUndefined();
    expect(body['assets']).toEqual({});
  });

  it("drops a static catalog's structure links and resolves the record's own relative links", () => {
    const body = commandOf(
      feature({
        id: 'x',
        links: [
          { rel: 'self', href: 'https://example.org/c/x/x.json' },
          { rel: 'parent', href: '../collection.json' },
          { rel: 'root', href: '../../catalog.json' },
          { rel: 'collection', href: '../collection.json' },
          { rel: 'license', href: '../LICENSE', title: 'Licence', type: 'text/plain' },
        ],
      }),
      parentId,
      'x',
    )['body'] as { links: { rel: string; href: string }[] };
    expect(body.links.map((link) => [link.rel, link.href])).toEqual([
      ['license', 'https://example.org/c/LICENSE'],
    ]);
  });

  it('sends an asset that is not an object as it is, for the service to refuse naming it', () => {
    const body = commandOf(feature({ id: 'x', assets: { data: null } }), parentId, 'x')['body'];
    expect((body as { assets: unknown }).assets).toEqual({ data: null });
  });

  it('makes no command of a record of another type (a catalog.json): the CLI skips it', () => {
    expect(commandOfRecord({ type: 'Catalog', id: 'root', links: [] }, parentId, 'catalog')).toBeNull();
  });
});

describe('a STAC Collection record as a command', () => {
  it('creates a collection named by its id, a UUID id not being a name', () => {
    const named = commandOf(
      { type: 'Collection', id: 'sentinel-2-l2a', description: 'S2', links: [] },
      null,
      'c',
    );
    expect(named).toMatchObject({
      type: 'createCollection',
      body: { title: 'sentinel-2-l2a', stacId: 'sentinel-2-l2a', description: 'S2' },
    });
    const uuid = randomUUID();
    const unnamed = commandOf({ type: 'Collection', id: uuid, title: 'T', links: [] }, parentId, 'c');
    expect(unnamed).toMatchObject({ type: 'createCollection', body: { title: 'T', parentId } });
    expect(unnamed['body']).not.toHaveProperty('stacId');
  });
});
