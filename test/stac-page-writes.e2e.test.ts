import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call, createCollection, defaultCredentialHeaders, expectCommand } from './support/http.js';

/**
 * A page of items is written in pieces of at most 32,768 characters (apps/api/src/http/send-json.ts), its
 * `Content-Length` counted from the bytes of every piece. A page larger than one piece, with texts of
 * two- and three-byte characters, must arrive whole, exactly as long as announced, for GET and HEAD, on
 * every route that answers pages: a collection's items, the search, and a `fields` selection.
 */

useSignedInCaller();

const STAC = '/api/v1/stac';
const ITEMS = 5;
/** About 9,000 characters of notes per item, 20,000 bytes: five items pass one piece by far. */
const notesOf = (n: number) => `${'é'.repeat(4_000)} item ${n} ${'€'.repeat(4_000)}`;

let collectionId = '';

beforeAll(async () => {
  collectionId = await createCollection({ title: 'STAC page writes', visibility: 'public' });
  for (let n = 0; n < ITEMS; n += 1) {
    const added = await call('POST', `${STAC}/collections/${collectionId}/items`, {
      body: {
        type: 'Feature',
        stac_version: '1.0.0',
        stac_extensions: [],
        id: `page-writes-${n}`,
        geometry: { type: 'Point', coordinates: [n, n] },
        properties: { datetime: `2024-01-0${n + 1}T00:00:00Z`, notes: notesOf(n) },
        links: [],
        assets: {},
      },
    });
    await expectCommand(added, 201, `add item ${n}`);
  }
}, 60_000);

interface RawAnswer {
  readonly status: number;
  readonly contentLength: number;
  readonly bytes: number;
  readonly text: string;
}

async function raw(method: 'GET' | 'HEAD', path: string): Promise<RawAnswer> {
  const response = await fetch(`${inject('baseUrl')}${path}`, {
    method,
    headers: { accept: 'application/geo+json', ...defaultCredentialHeaders() },
  });
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    contentLength: Number(response.headers.get('content-length')),
    bytes: body.length,
    text: body.toString('utf8'),
  };
}

interface Page {
  features: { id: string; properties: { notes?: string } }[];
  links: { rel: string }[];
  numberReturned: number;
}

describe('a page larger than one write', () => {
  const routes = () => [
    `${STAC}/collections/${collectionId}/items?limit=10`,
    `${STAC}/search?collections=${collectionId}&limit=10&sortby=%2Bdatetime`,
    `${STAC}/search?collections=${collectionId}&limit=10&fields=properties.notes`,
  ];

  it('arrives whole, as long as its Content-Length says, every item as stored', async () => {
    for (const path of routes()) {
      const answer = await raw('GET', path);
      expect(answer.status, path).toBe(200);
      expect(answer.text.length, path).toBeGreaterThan(32_768);
      expect(answer.contentLength, path).toBe(answer.bytes);
      const page = JSON.parse(answer.text) as Page;
      expect(page.numberReturned, path).toBe(ITEMS);
      const notes = new Map(page.features.map((feature) => [feature.id, feature.properties.notes]));
      for (let n = 0; n < ITEMS; n += 1) expect(notes.get(`page-writes-${n}`), path).toBe(notesOf(n));
      expect(
        page.links.map((link) => link.rel),
        path,
      ).toContain('self');
    }
  });

  it('answers HEAD with the same Content-Length and no body', async () => {
    for (const path of routes()) {
      const [get, head] = [await raw('GET', path), await raw('HEAD', path)];
      expect(head.status, path).toBe(200);
      expect(head.bytes, path).toBe(0);
      expect(head.contentLength, path).toBe(get.contentLength);
    }
  });
});
