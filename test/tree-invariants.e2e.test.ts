import { describe, expect, it } from 'vitest';
import { addMember, signUp, type SignedInUser } from './support/auth.js';
import { call, expectCommand } from './support/http.js';

/**
 * The rules that span more than one object, over HTTP: concurrent moves never close a cycle, a delete
 * racing a create never loses an acknowledged create, and moves, shares and deletes never widen or
 * take what the caller may not manage (docs/decisions.md "Cross-stream invariants", docs/identity.md).
 */

async function createCatalog(user: SignedInUser, fields: Record<string, unknown> = {}): Promise<string> {
  const response = await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
    headers: user.headers,
    body: { title: 'Catalog', description: 'tree invariants', links: [], ...fields },
  });
  await expectCommand(response, 201, 'create catalog');
  return response.body.portalItemId;
}

async function createCollection(user: SignedInUser, fields: Record<string, unknown>): Promise<string> {
  const response = await call<{ portalItemId: string }>('POST', '/api/v1/portal/collections/create', {
    headers: user.headers,
    body: { title: 'Collection', description: 'tree invariants', links: [], ...fields },
  });
  await expectCommand(response, 201, 'create collection');
  return response.body.portalItemId;
}

const move = (user: SignedInUser, id: string, parentId: string | null) =>
  call('POST', `/api/v1/portal/items/${id}/move`, { headers: user.headers, body: { parentId } });

const read = (user: SignedInUser | null, id: string) =>
  call('GET', `/api/v1/portal/items/${id}`, user ? { headers: user.headers } : { as: 'anonymous' });

describe('a move plus a share never lets anyone into objects the mover may not manage', () => {
  it('refuses the self-share and the move that would expose another member’s private collection', async () => {
    const owner = await signUp({ name: 'Owner A' });
    const editor = await addMember(owner, await signUp({ name: 'Editor E' }), 'editor');
    const stranger = await signUp({ name: 'Other tenant B' });

    const org3 = await createCatalog(owner, { title: 'Org-visible', visibility: 'org' });
    const hidden = await createCollection(owner, { title: 'Hidden', parentId: org3, visibility: 'private' });
    expect((await read(editor, hidden)).status).toBe(404);

    const mine = await createCatalog(editor, { title: 'Shared by E' });
    const selfShare = await call('POST', `/api/v1/portal/items/${mine}/shares`, {
      headers: editor.headers,
      body: { principal: { type: 'user', id: editor.userId }, permission: 'editor' },
    });
    expect(selfShare.status).toBe(400);
    expect((selfShare.body as { message: string }).message).toMatch(/yourself/);
    const toStranger = await call('POST', `/api/v1/portal/items/${mine}/shares`, {
      headers: editor.headers,
      body: { principal: { type: 'user', id: stranger.userId }, permission: 'editor' },
    });
    await expectCommand(toStranger, 201, 'share with the other tenant');

    const moved = await move(editor, org3, mine);
    expect(moved.status).toBe(403);
    expect(moved.body).toMatchObject({ code: 'FORBIDDEN' });

    for (const who of [editor, stranger]) {
      expect((await read(who, hidden)).status).toBe(404);
      const patched = await call('PATCH', `/api/v1/portal/items/${hidden}`, {
        headers: who.headers,
        body: { description: 'mine now' },
      });
      expect(patched.status).toBe(404);
    }
    expect((await read(stranger, org3)).status).toBe(404);
    // Removed from the organization, the editor keeps nothing that came through it: not even their own catalog.
    expect((await read(editor, mine)).status).toBe(200);
    await expectCommand(
      await call('POST', '/api/auth/organization/remove-member', {
        headers: owner.headers,
        body: { userId: editor.userId },
      }),
      200,
      'remove the editor',
    );
    expect((await read(editor, mine)).status).toBe(404);
    expect((await read(stranger, mine)).status).toBe(200);
    // The owner may: an admin decides who sees the organization's objects.
    await expectCommand(await move(owner, org3, mine), 200, 'the owner’s move');
    expect((await read(stranger, org3)).status).toBe(200);
    expect((await read(stranger, hidden)).status).toBe(404);
  });
});

describe('concurrent moves', () => {
  it('of two objects under each other: exactly one succeeds, the other is a 409 cycle', async () => {
    const owner = await signUp({ name: 'Mover' });
    for (let trial = 0; trial < 4; trial += 1) {
      const p = await createCatalog(owner, { title: `P ${trial}` });
      const q = await createCatalog(owner, { title: `Q ${trial}` });
      const answers = await Promise.all([move(owner, p, q), move(owner, q, p)]);
      const statuses = answers.map((answer) => (answer.status === 202 ? 200 : answer.status)).sort();
      expect(statuses).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)?.body).toMatchObject({ code: 'CYCLE' });
      const winner = answers.find((answer) => answer.status !== 409);
      if (winner) await expectCommand(winner, 200, 'the move that won');
      const [crumbsP, crumbsQ] = await Promise.all(
        [p, q].map((id) =>
          call<{ items: unknown[] }>('GET', `/api/v1/browser/nodes/${id}/breadcrumbs`, {
            headers: owner.headers,
          }),
        ),
      );
      expect([crumbsP?.body.items.length, crumbsQ?.body.items.length].sort()).toEqual([1, 2]);
    }
  });
});

describe('a delete racing creates', () => {
  it('never loses an acknowledged create: every 201 is readable, or the delete was refused', async () => {
    const owner = await signUp({ name: 'Racer' });
    for (let trial = 0; trial < 4; trial += 1) {
      const parent = await createCatalog(owner, { title: `Parent ${trial}` });
      const creates = Array.from({ length: 6 }, (_, index) =>
        call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
          headers: owner.headers,
          body: { title: `Child ${index}`, description: 'racing', links: [], parentId: parent },
        }),
      );
      const [deleted, ...created] = await Promise.all([
        call('DELETE', `/api/v1/portal/items/${parent}`, { headers: owner.headers }),
        ...creates,
      ]);
      const acknowledged = created.filter((answer) => answer.status === 201 || answer.status === 202);
      for (const answer of created) expect([201, 202, 409]).toContain(answer.status);
      for (const answer of acknowledged) {
        await expectCommand(answer, 201, 'racing create');
        expect((await read(owner, answer.body.portalItemId)).status).toBe(200);
      }
      if (deleted.status === 200 || deleted.status === 202) expect(acknowledged).toEqual([]);
      else expect(deleted.body).toMatchObject({ code: 'NOT_EMPTY' });
    }
  });
});

describe('deleting what one may not see', () => {
  it('refuses an editor with 403 without telling what is below, recursive or not', async () => {
    const owner = await signUp({ name: 'Owner' });
    const editor = await addMember(owner, await signUp({ name: 'Editor' }), 'editor');
    const top = await createCatalog(editor, { title: 'Editor’s catalog' });
    const secret = await createCollection(owner, { title: 'Secret', parentId: top, visibility: 'private' });
    for (const query of ['', '?recursive=true']) {
      const answer = await call('DELETE', `/api/v1/portal/items/${top}${query}`, { headers: editor.headers });
      expect(answer.status).toBe(403);
      expect(JSON.stringify(answer.body)).not.toMatch(/children|Secret|private/);
    }
    expect((await read(owner, secret)).status).toBe(200);
    await expectCommand(
      await call('DELETE', `/api/v1/portal/items/${top}?recursive=true`, { headers: owner.headers }),
      200,
      'the owner’s delete',
    );
    expect((await read(owner, secret)).status).toBe(404);
  });
});

describe('an item named as a parent', () => {
  it('is refused for what it is, an item, not as a missing parent', async () => {
    const owner = await signUp({ name: 'Kinds' });
    const collection = await createCollection(owner, { title: 'Holds items' });
    const item = await call<{ portalItemId: string }>('POST', '/api/v1/portal/items/create', {
      headers: owner.headers,
      body: { title: 'An item', links: [], parentId: collection },
    });
    await expectCommand(item, 201, 'create item');
    const answer = await call('POST', '/api/v1/portal/catalogs/create', {
      headers: owner.headers,
      body: { title: 'Under an item', description: 'no', links: [], parentId: item.body.portalItemId },
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'INVALID_PARENT_KIND' });
  });
});

describe('concurrent changes without If-Match', () => {
  it('all succeed: a writer that lost the race retries on a fresh read instead of answering 409', async () => {
    const owner = await signUp({ name: 'Patcher' });
    const id = await createCatalog(owner, { title: 'Busy' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call('PATCH', `/api/v1/portal/items/${id}`, {
          headers: owner.headers,
          body: { description: `writer ${index}` },
        }),
      ),
    );
    expect(answers.map((answer) => (answer.status === 202 ? 200 : answer.status))).toEqual(
      Array.from({ length: 20 }, () => 200),
    );
    const history = await call<{ items: unknown[] }>('GET', `/api/v1/portal/items/${id}/history`, {
      headers: owner.headers,
    });
    expect(history.body.items).toHaveLength(21);
  });
});
