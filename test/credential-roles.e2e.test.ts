import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, apiKey, signUp, type SignedInUser } from './support/auth.js';
import { call, expectCommand } from './support/http.js';

/**
 * A credential never acts above its role, also on what its user created: a viewer-role API key of the
 * organization's owner, or the owner's former editor demoted to viewer, reads their own private objects
 * and changes nothing.
 */

let owner: SignedInUser;
let privateCatalog: string;

async function createPrivateCatalog(headers: Record<string, string>): Promise<string> {
  const created = await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
    headers,
    body: { title: `Private ${Math.random()}`, description: 'd', links: [], visibility: 'private' },
  });
  await expectCommand(created, 201, 'create private catalog');
  return created.body.portalItemId;
}

/** Every change a creator could make to their object, with the status each answers. */
async function changesBy(headers: Record<string, string>, id: string): Promise<Record<string, number>> {
  const statusOf = async (method: string, path: string, body?: unknown) =>
    (await call(method, path, { headers, ...(body === undefined ? {} : { body }) })).status;
  return {
    read: await statusOf('GET', `/api/v1/portal/items/${id}`),
    update: await statusOf('PATCH', `/api/v1/portal/items/${id}`, { title: 'Taken over' }),
    publish: await statusOf('PUT', `/api/v1/portal/items/${id}/visibility`, { visibility: 'public' }),
    share: await statusOf('POST', `/api/v1/portal/items/${id}/shares`, {
      principal: { type: 'user', id: owner.userId },
      permission: 'viewer',
    }),
    createBelow: await statusOf('POST', '/api/v1/portal/catalogs/create', {
      title: 'Child',
      description: 'd',
      links: [],
      parentId: id,
    }),
    delete: await statusOf('DELETE', `/api/v1/portal/items/${id}?recursive=true`),
  };
}

const readOnly = { read: 200, update: 403, publish: 403, share: 403, createBelow: 403, delete: 403 };

beforeAll(async () => {
  owner = await signUp({ name: 'Owner' });
  privateCatalog = await createPrivateCatalog(owner.headers);
});

describe('a credential with the viewer role', () => {
  it("as the owner's viewer-role API key, only reads what the owner created", async () => {
    const key = await apiKey(owner, { role: 'viewer', name: 'read-only pipeline' });
    expect(await changesBy(key.headers, privateCatalog)).toEqual(readOnly);
    expect((await call('GET', `/api/v1/portal/items/${privateCatalog}`, { as: 'anonymous' })).status).toBe(
      404,
    );
  });

  it('as a creator demoted to viewer, only reads what they created', async () => {
    const editor = await addMember(owner, await signUp({ name: 'Soon a viewer' }), 'editor');
    const theirs = await createPrivateCatalog(editor.headers);
    const demoted = await call('POST', '/api/auth/organization/update-member-role', {
      headers: owner.headers,
      body: { userId: editor.userId, role: 'viewer' },
    });
    await expectCommand(demoted, 200, 'update-member-role');
    expect(await changesBy(editor.headers, theirs)).toEqual(readOnly);
  });
});
