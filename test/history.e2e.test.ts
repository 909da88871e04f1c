import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  historyPageSchema,
  portalItemRecordSchema,
  type HistoryEntry,
  type HistoryPage,
} from '@portal/contracts';
import { addMember, signUp, type SignedInUser } from './support/auth.js';
import { call, expectCommand, expectMatchesContract } from './support/http.js';

/**
 * The audit trail of one object (docs/history.md). In the owner's organization, with an editor and a
 * viewer: a catalog is created by the owner, retitled by the owner, retitled and described by the editor,
 * moved by the owner, shared with a user of another organization, and made private.
 */

let owner: SignedInUser;
let editor: SignedInUser;
let viewer: SignedInUser;
let friend: SignedInUser;
let outsider: SignedInUser;
let home: string;
let away: string;
let catalog: string;

async function createCatalog(
  user: SignedInUser,
  title: string,
  parentId?: string,
  visibility?: 'public',
): Promise<string> {
  const created = await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
    headers: user.headers,
    body: {
      title,
      description: 'history test',
      links: [],
      ...(parentId === undefined ? {} : { parentId }),
      ...(visibility === undefined ? {} : { visibility }),
    },
  });
  await expectCommand(created, 201, 'create catalog');
  return created.body.portalItemId;
}

const historyOf = (id: string, user: SignedInUser, query = '') =>
  call<HistoryPage>('GET', `/api/v1/portal/items/${id}/history${query}`, { headers: user.headers });

const asOf = (id: string, user: SignedInUser, value: string) =>
  call<{ title: string; revision: number; message?: string }>(
    'GET',
    `/api/v1/portal/items/${id}?asOf=${encodeURIComponent(value)}`,
    { headers: user.headers },
  );

beforeAll(async () => {
  owner = await signUp({ name: 'History Owner' });
  editor = await addMember(owner, await signUp({ name: 'History Editor' }), 'editor');
  viewer = await addMember(owner, await signUp({ name: 'History Viewer' }), 'viewer');
  friend = await signUp({ name: 'History Friend' });
  outsider = await signUp({ name: 'History Outsider' });

  home = await createCatalog(owner, 'History home');
  away = await createCatalog(owner, 'History away');
  catalog = await createCatalog(owner, 'First title', home);
  const patch = (user: SignedInUser, body: Record<string, unknown>) =>
    call('PATCH', `/api/v1/portal/items/${catalog}`, { headers: user.headers, body });
  await expectCommand(await patch(owner, { title: 'Second title' }), 200, 'retitle');
  await expectCommand(await patch(editor, { title: 'Third title', description: 'edited' }), 200, 'edit');
  await expectCommand(
    await call('POST', `/api/v1/portal/items/${catalog}/move`, {
      headers: owner.headers,
      body: { parentId: away },
    }),
    200,
    'move',
  );
  await expectCommand(
    await call('POST', `/api/v1/portal/items/${catalog}/shares`, {
      headers: owner.headers,
      body: { principal: { type: 'user', id: friend.userId }, permission: 'viewer' },
    }),
    201,
    'share',
  );
  await expectCommand(
    await call('PUT', `/api/v1/portal/items/${catalog}/visibility`, {
      headers: owner.headers,
      body: { visibility: 'private' },
    }),
    200,
    'make private',
  );
}, 90_000);

describe('the history of an object', () => {
  it('lists every change in order, with its actor and what it changed', async () => {
    const response = await historyOf(catalog, owner);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expectMatchesContract(historyPageSchema, response.body);
    const { items, next, links } = response.body;
    expect(next).toBeNull();
    expect(links).toEqual([]);
    expect(items.map((entry) => [entry.revision, entry.type])).toEqual([
      [0, 'CatalogCreated'],
      [1, 'PortalObjectUpdated'],
      [2, 'PortalObjectUpdated'],
      [3, 'PortalObjectMoved'],
      [4, 'ObjectShared'],
      [5, 'VisibilityChanged'],
    ]);
    expect(items.map((entry) => entry.actor)).toEqual([
      { id: owner.userId, name: 'History Owner' },
      { id: owner.userId, name: 'History Owner' },
      { id: editor.userId, name: 'History Editor' },
      { id: owner.userId, name: 'History Owner' },
      { id: owner.userId, name: 'History Owner' },
      { id: owner.userId, name: 'History Owner' },
    ]);
    const [created, first, second, moved, shared, visibility] = items as [
      HistoryEntry,
      HistoryEntry,
      HistoryEntry,
      HistoryEntry,
      HistoryEntry,
      HistoryEntry,
    ];
    expect(created.change).toMatchObject({
      title: 'First title',
      description: 'history test',
      parentId: home,
      orgId: owner.orgId,
      visibility: 'org',
      createdBy: owner.userId,
    });
    expect(first.change).toEqual({ title: { before: 'First title', after: 'Second title' } });
    expect(second.change).toEqual({
      title: { before: 'Second title', after: 'Third title' },
      description: { before: 'history test', after: 'edited' },
    });
    expect(moved.change).toEqual({ fromParentId: home, toParentId: away });
    expect(shared.change).toEqual({
      principal: { type: 'user', id: friend.userId },
      permission: 'viewer',
      previousPermission: null,
    });
    expect(visibility.change).toEqual({ from: 'org', to: 'private' });
    // Positions and times grow with the revisions.
    const times = items.map((entry) => Date.parse(entry.occurredAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(items.map((entry) => entry.position)).size).toBe(items.length);
  });

  it('pages through the history with limit=2, following next, without gaps or repeats', async () => {
    const seen: number[] = [];
    let path = `/api/v1/portal/items/${catalog}/history?limit=2`;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = await call<HistoryPage>('GET', path, { headers: owner.headers });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((entry) => entry.revision));
      if (page.body.next === null) break;
      expect(page.body.links[0]?.rel).toBe('next');
      expect(page.body.links[0]?.href).toContain(`cursor=${page.body.next}`);
      path = `/api/v1/portal/items/${catalog}/history?limit=2&cursor=${page.body.next}`;
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('refuses a bad limit or cursor with 400', async () => {
    expect((await historyOf(catalog, owner, '?limit=0')).status).toBe(400);
    expect((await historyOf(catalog, owner, '?limit=1001')).status).toBe(400);
    expect((await historyOf(catalog, owner, '?cursor=garbage')).status).toBe(400);
  });

  it('answers 404, in the words of an unknown id, to whoever cannot read the object', async () => {
    const unknown = randomUUID();
    const missing = await historyOf(unknown, owner);
    expect(missing.status).toBe(404);
    const wordsFor = (id: string, message: unknown) => String(message).replace(id, '<id>');
    for (const user of [outsider, viewer]) {
      const hidden = await historyOf(catalog, user);
      expect(hidden.status).toBe(404);
      expect(wordsFor(catalog, (hidden.body as unknown as { message: string }).message)).toBe(
        wordsFor(unknown, (missing.body as unknown as { message: string }).message),
      );
    }
    const anonymous = await call('GET', `/api/v1/portal/items/${catalog}/history`, { as: 'anonymous' });
    expect(anonymous.status).toBe(404);
  });

  it('is readable by a member of the organization, and by the user it was shared with', async () => {
    expect((await historyOf(home, editor)).status).toBe(200);
    expect((await historyOf(catalog, friend)).status).toBe(200);
  });
});

describe('the object as it was (asOf)', () => {
  it('answers the earlier title at a time between the two updates', async () => {
    const { items } = (await historyOf(catalog, owner)).body;
    const first = Date.parse(items[1]?.occurredAt ?? '');
    const second = Date.parse(items[2]?.occurredAt ?? '');
    expect(second).toBeGreaterThan(first);
    const between = new Date(first + Math.floor((second - first) / 2)).toISOString();
    const response = await asOf(catalog, owner, between);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expectMatchesContract(portalItemRecordSchema, response.body);
    expect(response.body).toMatchObject({ title: 'Second title', revision: 1, parentId: home });
    expect(response.headers.get('etag')).toBe('"1"');
  });

  it('answers the title of a revision, and today’s object without asOf', async () => {
    const created = await asOf(catalog, owner, '0');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ title: 'First title', revision: 0, description: 'history test' });
    const edited = await asOf(catalog, owner, '2');
    expect(edited.body).toMatchObject({ title: 'Third title', description: 'edited', parentId: home });
    const now = await call('GET', `/api/v1/portal/items/${catalog}`, { headers: owner.headers });
    expect(now.body).toMatchObject({ title: 'Third title', parentId: away, revision: 5 });
  });

  it('answers 404 before the object was created and past its last revision', async () => {
    const before = await asOf(catalog, owner, '2000-01-01T00:00:00Z');
    expect(before.status).toBe(404);
    expect(before.body.message).toContain('did not exist yet');
    expect((await asOf(catalog, owner, '99')).status).toBe(404);
  });

  it('answers 400 with a clear message for a bad asOf', async () => {
    for (const value of ['yesterday', '2024-05-01', '-3', '']) {
      const response = await asOf(catalog, owner, value);
      expect(response.status, value).toBe(400);
      expect(response.body.message).toContain('asOf');
      expect(response.body.message).toContain('RFC 3339');
    }
  });

  it('answers 404 to whoever cannot read the object, whatever the time', async () => {
    expect((await asOf(catalog, outsider, '0')).status).toBe(404);
    expect((await asOf(catalog, viewer, '0')).status).toBe(404);
  });
});

describe('a deleted object', () => {
  it('keeps its history and its past readable to whoever could read it, and only to them', async () => {
    const doomed = await createCatalog(owner, 'Doomed', home);
    const deleted = await call('DELETE', `/api/v1/portal/items/${doomed}`, { headers: owner.headers });
    await expectCommand(deleted, 200, 'delete');
    expect((await call('GET', `/api/v1/portal/items/${doomed}`, { headers: owner.headers })).status).toBe(
      404,
    );
    const history = await historyOf(doomed, owner);
    expect(history.status).toBe(200);
    expect(history.body.items.map((entry) => entry.type)).toEqual(['CatalogCreated', 'PortalObjectDeleted']);
    expect(history.body.items[1]?.change).toEqual({ recursive: false });
    expect((await asOf(doomed, owner, '0')).body).toMatchObject({ title: 'Doomed' });
    const afterwards = await asOf(doomed, owner, '1');
    expect(afterwards.status).toBe(404);
    expect(afterwards.body.message).toContain('was deleted');
    expect((await historyOf(doomed, outsider)).status).toBe(404);
  });
});

describe('shares in the history', () => {
  it('are named only to those who may manage them', async () => {
    const owner = await signUp({ name: 'Sharing owner' });
    const friend = await signUp({ name: 'Friend' });
    const id = await createCatalog(owner, 'Public, shared', undefined, 'public');
    const shared = await call('POST', `/api/v1/portal/items/${id}/shares`, {
      headers: owner.headers,
      body: { principal: { type: 'user', id: friend.userId }, permission: 'editor' },
    });
    await expectCommand(shared, 201, 'share');
    const shareOf = async (options: { headers: Record<string, string> } | { as: 'anonymous' }) => {
      const history = await call<{ items: { type: string; change: unknown }[] }>(
        'GET',
        `/api/v1/portal/items/${id}/history`,
        options,
      );
      expect(history.status).toBe(200);
      return history.body.items.find((entry) => entry.type === 'ObjectShared')?.change;
    };
    expect(await shareOf({ headers: owner.headers })).toEqual({
      principal: { type: 'user', id: friend.userId },
      permission: 'editor',
      previousPermission: null,
    });
    const hidden = { principal: null, permission: null, previousPermission: null };
    expect(await shareOf({ as: 'anonymous' })).toEqual(hidden);
    expect(await shareOf({ headers: friend.headers })).toEqual(hidden);
  });
});
