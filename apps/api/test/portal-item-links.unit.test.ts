import { describe, expect, it } from 'vitest';
import type { Link } from '@portal/domain';
import { linkedObjectId } from '../src/portal-items/portal-item-record.js';

const base = 'https://portal.example.org';
const id = '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f';

function link(href: string, targetType = 'collection'): Link {
  return { title: 't', href, rel: 'related', type: 'application/json', targetType, linkJson: {} };
}

describe('linkedObjectId', () => {
  it('reads a bare id, a path of this API and an absolute URL of this API', () => {
    expect(linkedObjectId(link(id), base)).toBe(id);
    expect(linkedObjectId(link(`/api/v1/portal/items/${id}`), base)).toBe(id);
    expect(linkedObjectId(link(`${base}/api/v1/collections/${id}/`), base)).toBe(id);
    expect(linkedObjectId(link(id.toUpperCase(), 'portal-item'), base)).toBe(id);
  });

  it('ignores other hosts, other target types and hrefs without an id', () => {
    expect(linkedObjectId(link(`https://elsewhere.example.com/items/${id}`), base)).toBeNull();
    expect(linkedObjectId(link(id, 'web'), base)).toBeNull();
    expect(linkedObjectId(link('/api/v1/collections/latest'), base)).toBeNull();
    expect(linkedObjectId(link(`/api/v1/items/${id}/assets`), base)).toBeNull();
  });
});
