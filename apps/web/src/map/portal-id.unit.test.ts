import type { StacItem } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { portalIdOf } from './portal-id.js';

const uuid = '0b3c6a52-7e0c-4a55-9d1e-4d3f0d6c2a01';

function item(id: string, links: StacItem['links']): StacItem {
  return {
    type: 'Feature',
    stac_version: '1.0.0',
    stac_extensions: [],
    id,
    geometry: null,
    properties: { datetime: '2024-01-01T00:00:00Z' },
    links,
    assets: {},
  };
}

describe('the portal id of a STAC Item', () => {
  it('is read from its alternate link, not from a name its client gave it', () => {
    const links = [
      {
        rel: 'self',
        href: 'http://x/api/v1/stac/collections/c/items/scene%201%23a',
        type: 'application/geo+json',
      },
      { rel: 'alternate', href: `http://x/api/v1/portal/items/${uuid}`, type: 'application/json' },
    ];
    expect(portalIdOf(item('scene 1#a', links))).toBe(uuid);
  });

  it('is its id when no link names the portal record', () => {
    const links = [{ rel: 'alternate', href: 'https://example.org/scene.html', type: 'text/html' }];
    expect(portalIdOf(item(uuid, links))).toBe(uuid);
  });
});
