import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, signUp, type SignedInUser } from './support/auth.js';
import { call, expectCommand } from './support/http.js';

/**
 * An editor's own private objects (docs/identity.md, the roles table): the editor who created one reads
 * it, changes it, shares it and changes its visibility; another editor of the same organization does
 * not find it; the organization's admins do.
 */

let owner: SignedInUser;
let author: SignedInUser;
let otherEditor: SignedInUser;
let admin: SignedInUser;
let outsider: SignedInUser;

beforeAll(async () => {
  owner = await signUp({ name: 'Owner' });
  author = await addMember(owner, await signUp({ name: 'Author' }), 'editor');
  otherEditor = await addMember(owner, await signUp({ name: 'Other editor' }), 'editor');
  admin = await addMember(owner, await signUp({ name: 'Admin' }), 'admin');
  outsider = await signUp({ name: 'Outsider' });
});

async function createCatalogAs(
  user: SignedInUser,
  title: string,
  fields: { visibility?: string; parentId?: string } = { visibility: 'private' },
): Promise<string> {
  const created = await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
    headers: user.headers,
    body: { title, description: 'private draft', links: [], ...fields },
  });
  await expectCommand(created, 201, 'create catalog');
  return created.body.portalItemId;
}

const read = (user: SignedInUser, id: string) =>
  call<{ title: string; revision: number }>('GET', `/api/v1/portal/items/${id}`, { headers: user.headers });

describe("an editor's own private object", () => {
  it('is read, changed, shared and made visible by its editor', async () => {
    const title = `Draft ${Math.random()}`;
    const id = await createCatalogAs(author, title);
    expect((await read(author, id)).body).toMatchObject({ title });
    expect((await read(otherEditor, id)).status).toBe(404);

    await expectCommand(
      await call('PATCH', `/api/v1/portal/items/${id}`, {
        headers: author.headers,
        body: { title: 'Draft, edited' },
      }),
      200,
      'edit',
    );
    expect((await read(author, id)).body.title).toBe('Draft, edited');

    await expectCommand(
      await call('POST', `/api/v1/portal/items/${id}/shares`, {
        headers: author.headers,
        body: { principal: { type: 'user', id: outsider.userId }, permission: 'viewer' },
      }),
      201,
      'share',
    );
    expect((await read(outsider, id)).status).toBe(200);

    const changed = await call('PUT', `/api/v1/portal/items/${id}/visibility`, {
      headers: author.headers,
      body: { visibility: 'org' },
    });
    await expectCommand(changed, 200, 'make it org');
    expect(changed.body).toEqual({ id, visibility: 'org' });
    // Visible to the organization now: the other editor finds it.
    expect((await read(otherEditor, id)).status).toBe(200);
  });

  it('is not found by another editor of the organization, on any verb', async () => {
    const title = `Hidden ${Math.random()}`;
    const id = await createCatalogAs(author, title);
    const asOther = (method: string, path: string, body?: unknown) =>
      call(method, path, { headers: otherEditor.headers, ...(body === undefined ? {} : { body }) });

    const answers = {
      read: (await asOther('GET', `/api/v1/portal/items/${id}`)).status,
      children: (await asOther('GET', `/api/v1/browser/nodes/${id}/children`)).status,
      update: (await asOther('PATCH', `/api/v1/portal/items/${id}`, { title: 'Taken' })).status,
      visibility: (await asOther('PUT', `/api/v1/portal/items/${id}/visibility`, { visibility: 'org' }))
        .status,
      share: (
        await asOther('POST', `/api/v1/portal/items/${id}/shares`, {
          principal: { type: 'user', id: otherEditor.userId },
          permission: 'editor',
        })
      ).status,
      delete: (await asOther('DELETE', `/api/v1/portal/items/${id}`)).status,
    };
    expect(answers).toEqual({
      read: 404,
      children: 404,
      update: 404,
      visibility: 404,
      share: 404,
      delete: 404,
    });
    // Nothing of that reached it: still its title, still hidden.
    expect((await read(author, id)).body).toMatchObject({ title, revision: 0 });
    expect((await read(otherEditor, id)).status).toBe(404);
  });

  it("is seen by the organization's admin, in its parent's children too", async () => {
    const folder = await createCatalogAs(author, `Folder ${Math.random()}`, { visibility: 'org' });
    const title = `Seen by admins ${Math.random()}`;
    const id = await createCatalogAs(author, title, { visibility: 'private', parentId: folder });
    expect((await read(admin, id)).body).toMatchObject({ title });

    const childrenFor = async (user: SignedInUser) =>
      (
        await call<{ items: { id: string }[] }>('GET', `/api/v1/browser/nodes/${folder}/children`, {
          headers: user.headers,
        })
      ).body.items.map((item) => item.id);
    expect(await childrenFor(admin)).toEqual([id]);
    expect(await childrenFor(author)).toEqual([id]);
    expect(await childrenFor(otherEditor)).toEqual([]);
  });
});
