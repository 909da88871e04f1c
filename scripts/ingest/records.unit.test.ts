import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { commandOfRecord } from './records.js';

const parentId = randomUUID();

function feature(fields: Record<string, unknown>) {
  return { type: 'Feature', properties: { datetime: '2026-06-01T00:00:00Z' }, links: [], ...fields };
}

describe('a STAC Item record as a command', () => {
  it('registers its assets by href under its STAC id, relative hrefs resolved against its self link', () => {
    const command = commandOfRecord(
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
    const command = commandOfRecord(
      feature({ id: 'x', assets: { data: { href: 'data.tif' } } }),
      parentId,
      'x',
    );
    expect((command['body'] as { assets: unknown }).assets).toEqual({ data: { href: 'data.tif' } });
  });

  it('names no STAC id for a UUID id, and registers an Item without assets with none', () => {
    const body = commandOfRecord(feature({ id: randomUUID() }), parentId, 'file')['body'] as Record<
      string,
      unknown
    >;
    expect(body['stacId']).toBeUndefined();
    expect(body['assets']).toEqual({});
  });
});
