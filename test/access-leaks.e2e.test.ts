import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, signUp, type SignedInUser } from './support/auth.js';
import { call, expectCommand, link } from './support/http.js';

/**
 * Nothing about an object the caller cannot see may come out of any read: not its record, not a count
 * that includes it, not a breadcrumb, not a resolved path, not a linked-item summary, not a total.
 *
 * Organization A (an owner and a viewer) and organization B (an owner). In A: a public catalog holding
 * an `org` and a `private` catalog, an `org` catalog, and a private catalog holding a collection shared
 * with B's owner. In B: a public catalog linking to A's public and `org` catalogs.
 */

// Every title carries it, so inventory searches see only this file's objects.
const token = `leak${randomUUID().slice(0, 8)}`;

let ownerA: SignedInUser;
let viewerA: SignedInUser;
let ownerB: SignedInUser;
const ids: Record<string, string> = {};

async function createAs(
  user: SignedInUser,
  kind: 'catalogs' | 'collections',
  title: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const created = await call<{ portalItemId: string }>('POST', `/api/v1/portal/${kind}/create`, {
    headers: user.headers,
    body: { title: `${token} ${title}`, description: 'leak test', links: [], ...fields },
  });
  await expectCommand(created, 201, `create ${kind}`);
  return created.body.portalItemId;
}

function as(user: SignedInUser | null) {
  return user ? { headers: user.headers } : { as: 'anonymous' as const };
}

beforeAll(async () => {
  ownerA = await signUp({ name: 'Owner A' });
  viewerA = await addMember(ownerA, await signUp({ name: 'Viewer A' }), 'viewer');
  ownerB = await signUp({ name: 'Owner B' });

  ids.publicA = await createAs(ownerA, 'catalogs', 'public A', { visibility: 'public' });
  ids.orgChild = await createAs(ownerA, 'catalogs', 'org child', { parentId: ids.publicA });
  ids.privateChild = await createAs(ownerA, 'catalogs', 'private child', {
    parentId: ids.publicA,
    visibility: 'private',
  });
  ids.orgA = await createAs(ownerA, 'catalogs', 'org A');
  ids.privateA = await createAs(ownerA, 'catalogs', 'private A', { visibility: 'private' });
  ids.sharedCollection = await createAs(ownerA, 'collections', 'shared collection', {
    parentId: ids.privateA,
  });
  const shared = await call('POST', `/api/v1/portal/items/${ids.sharedCollection}/shares`, {
    headers: ownerA.headers,
    body: { principal: { type: 'user', id: ownerB.userId }, permission: 'viewer' },
  });
  await expectCommand(shared, 201, 'share');
  ids.publicB = await createAs(ownerB, 'catalogs', 'public B', {
    visibility: 'public',
    links: [
      link({ title: 'A public', href: ids.publicA, targetType: 'catalog' }),
      link({ title: 'A org', href: ids.orgA, targetType: 'catalog' }),
    ],
  });
}, 60_000);

describe('what an anonymous caller sees', () => {
  it('is public objects only, in every list', async () => {
    const inventory = await call<{ items: { id: string }[]; totals: { objects: number } }>(
      'GET',
      `/api/v1/portal/inventory/?q=${token}&limit=100`,
      as(null),
    );
    expect(inventory.status).toBe(200);
    expect(inventory.body.items.map((item) => item.id).sort()).toEqual([ids.publicA, ids.publicB].sort());
    expect(inventory.body.totals.objects).toBe(2);

    const root = await call<{ items: { id: string }[] }>('GET', '/api/v1/browser/root?limit=1000', as(null));
    const mine = new Set(Object.values(ids));
    expect(
      root.body.items
        .filter((node) => mine.has(node.id))
        .map((node) => node.id)
        .sort(),
    ).toEqual([ids.publicA, ids.publicB].sort());
    for (const hidden of [ids.orgChild, ids.privateChild, ids.orgA, ids.privateA, ids.sharedCollection]) {
      expect((await call('GET', `/api/v1/portal/items/${hidden}`, as(null))).status).toBe(404);
    }
  });
});

describe('counts', () => {
  it('count only the children the caller can see', async () => {
    const childCountFor = async (user: SignedInUser | null) => {
      const children = await call<{ node: { childCount: number; hasChildren: boolean }; items: unknown[] }>(
        'GET',
        `/api/v1/browser/nodes/${ids.publicA}/children`,
        as(user),
      );
      expect(children.status).toBe(200);
      expect(children.body.items).toHaveLength(children.body.node.childCount);
      return children.body.node.childCount;
    };
    expect(await childCountFor(ownerA)).toBe(2);
    expect(await childCountFor(viewerA)).toBe(1);
    expect(await childCountFor(ownerB)).toBe(0);
    expect(await childCountFor(null)).toBe(0);
  });

  it('total only what the caller can see', async () => {
    const totalFor = async (user: SignedInUser | null) =>
      (await call<{ totals: { objects: number } }>('GET', `/api/v1/portal/inventory/?q=${token}`, as(user)))
        .body.totals.objects;
    // ownerA: all six of A's and B's public one; viewerA: not the two private ones nor what is under them.
    expect(await totalFor(ownerA)).toBe(7);
    expect(await totalFor(viewerA)).toBe(4);
    // ownerB: both public catalogs, B's own, and the collection shared with them.
    expect(await totalFor(ownerB)).toBe(3);
  });
});

describe('breadcrumbs and paths', () => {
  it('leave out an ancestor the caller cannot see', async () => {
    const crumbs = await call<{ items: { id: string }[] }>(
      'GET',
      `/api/v1/browser/nodes/${ids.sharedCollection}/breadcrumbs`,
      as(ownerB),
    );
    expect(crumbs.status).toBe(200);
    expect(JSON.stringify(crumbs.body)).not.toContain(ids.privateA);
    expect(JSON.stringify(crumbs.body)).not.toContain('private A');

    const own = await call<{ items: { id: string }[] }>(
      'GET',
      `/api/v1/browser/nodes/${ids.sharedCollection}/breadcrumbs`,
      as(ownerA),
    );
    expect(JSON.stringify(own.body)).toContain(ids.privateA);
  });

  it('answer an invisible node exactly as a missing one', async () => {
    for (const user of [ownerB, null]) {
      const hidden = await call<{ message: string }>(
        'GET',
        `/api/v1/browser/nodes/${ids.orgA}/breadcrumbs`,
        as(user),
      );
      const missing = await call<{ message: string }>(
        'GET',
        `/api/v1/browser/nodes/${randomUUID()}/breadcrumbs`,
        as(user),
      );
      expect(hidden.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(hidden.body.message.replace(ids.orgA ?? '', 'ID')).toBe(
        missing.body.message.replace(/[0-9a-f-]{36}/, 'ID'),
      );
    }
  });

  it('resolve a path through invisible nodes exactly as a path that does not exist', async () => {
    const node = await call<{ node: { slug: string } }>(
      'GET',
      `/api/v1/browser/nodes/${ids.orgA}/children`,
      as(ownerA),
    );
    const slug = node.body.node.slug;
    expect((await call('GET', `/api/v1/browser/path/${slug}`, as(viewerA))).status).toBe(200);
    const hidden = await call<{ message: string }>('GET', `/api/v1/browser/path/${slug}`, as(ownerB));
    const missing = await call<{ message: string }>('GET', `/api/v1/browser/path/${slug}-x`, as(ownerB));
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(hidden.body.message.replace(slug, 'S')).toBe(missing.body.message.replace(`${slug}-x`, 'S'));
  });
});

describe('linksPortalItems', () => {
  it('summarises only linked objects the caller can see, and keeps every link', async () => {
    const linkedFor = async (user: SignedInUser | null) => {
      const record = await call<{ links: unknown[]; linksPortalItems: { id: string }[] }>(
        'GET',
        `/api/v1/portal/items/${ids.publicB}`,
        as(user),
      );
      expect(record.status).toBe(200);
      expect(record.body.links.length).toBeGreaterThanOrEqual(2);
      return record.body.linksPortalItems.map((item) => item.id).sort();
    };
    expect(await linkedFor(null)).toEqual([ids.publicA]);
    expect(await linkedFor(ownerB)).toEqual([ids.publicA]);
    expect(await linkedFor(viewerA)).toEqual([ids.publicA, ids.orgA].sort());
  });
});

describe('deleted objects', () => {
  /** The answer with `id` replaced, so a deleted object's and an unknown id's compare byte for byte. */
  const shown = (answer: { status: number; body: unknown }, id: string) =>
    `${answer.status} ${JSON.stringify(answer.body).replaceAll(id, 'ID')}`;

  let deletedPrivate: string;
  let buriedBelow: string;
  let bobsOwn: string;

  beforeAll(async () => {
    deletedPrivate = await createAs(ownerA, 'catalogs', 'deleted private', { visibility: 'private' });
    buriedBelow = await createAs(ownerA, 'collections', 'buried below', { parentId: deletedPrivate });
    const removed = await call('DELETE', `/api/v1/portal/items/${deletedPrivate}?recursive=true`, {
      headers: ownerA.headers,
    });
    await expectCommand(removed, 200, 'delete');
    bobsOwn = await createAs(ownerB, 'catalogs', 'bob own');
  }, 30_000);

  it("answer another organization's PATCH and DELETE exactly as an unknown id", async () => {
    for (const user of [ownerB, viewerA]) {
      for (const gone of [deletedPrivate, buriedBelow]) {
        const unknown = randomUUID();
        const patch = (id: string) =>
          call('PATCH', `/api/v1/portal/items/${id}`, { headers: user.headers, body: { title: 'Peek' } });
        const hidden = shown(await patch(gone), gone);
        expect(hidden).toMatch(/^404 /);
        expect(hidden).toBe(shown(await patch(unknown), unknown));
        const remove = (id: string) =>
          call('DELETE', `/api/v1/portal/items/${id}`, { headers: user.headers });
        expect(shown(await remove(gone), gone)).toBe(shown(await remove(unknown), unknown));
      }
    }
  });

  it('answer a move or a create under a deleted private catalog exactly as under an unknown id', async () => {
    const unknown = randomUUID();
    const moveUnder = (parentId: string) =>
      call('POST', `/api/v1/portal/items/${bobsOwn}/move`, { headers: ownerB.headers, body: { parentId } });
    const hidden = shown(await moveUnder(deletedPrivate), deletedPrivate);
    expect(hidden).toMatch(/^409 .*PARENT_NOT_FOUND/);
    expect(hidden).toBe(shown(await moveUnder(unknown), unknown));

    const createUnder = (parentId: string) =>
      call('POST', '/api/v1/portal/catalogs/create', {
        headers: ownerB.headers,
        body: { title: `${token} probe`, description: 'probe', links: [], parentId },
      });
    expect(shown(await createUnder(deletedPrivate), deletedPrivate)).toBe(
      shown(await createUnder(unknown), unknown),
    );
  });

  it('still tell a caller who could read them that they were deleted', async () => {
    const patched = await call<{ message: string; code: string }>(
      'PATCH',
      `/api/v1/portal/items/${deletedPrivate}`,
      {
        headers: ownerA.headers,
        body: { title: 'Again' },
      },
    );
    expect(patched.status).toBe(404);
    expect(patched.body).toMatchObject({
      code: 'NOT_FOUND',
      message: `catalog ${deletedPrivate} was deleted`,
    });
    const below = await call<{ message: string }>('PATCH', `/api/v1/portal/items/${buriedBelow}`, {
      headers: ownerA.headers,
      body: { title: 'Again' },
    });
    expect(below.body.message).toMatch(/was deleted with an ancestor/);
    const created = await call<{ message: string }>('POST', '/api/v1/portal/catalogs/create', {
      headers: ownerA.headers,
      body: { title: `${token} late`, description: 'late', links: [], parentId: deletedPrivate },
    });
    expect(created.status).toBe(409);
    expect(created.body.message).toMatch(/was deleted/);
  });
});

describe('slugs across organizations', () => {
  const slugOf = async (user: SignedInUser | null, id: string): Promise<string> => {
    const node = await call<{ node: { slug: string } }>(
      'GET',
      `/api/v1/browser/nodes/${id}/children`,
      as(user),
    );
    expect(node.status).toBe(200);
    return node.body.node.slug;
  };

  it("never suffix a title because another organization's hidden root object holds it", async () => {
    const title = `Acme Merger Plans ${randomUUID().slice(0, 8)}`;
    const alices = await createAs(ownerA, 'catalogs', title, { visibility: 'private' });
    const bobs = await createAs(ownerB, 'catalogs', title);
    const plain = await slugOf(ownerA, alices);
    expect(await slugOf(ownerB, bobs)).toBe(plain);

    // A rename into a title only A holds keeps the plain slug too; into one B holds, it gets -2.
    const rename = async (id: string, to: string) => {
      const patched = await call('PATCH', `/api/v1/portal/items/${id}`, {
        headers: ownerB.headers,
        body: { title: `${token} ${to}` },
      });
      await expectCommand(patched, 200, 'rename');
      return slugOf(ownerB, id);
    };
    const other = `Acme Board Minutes ${randomUUID().slice(0, 8)}`;
    const alicesOther = await createAs(ownerA, 'catalogs', other, { visibility: 'private' });
    const renamed = await createAs(ownerB, 'catalogs', `renamed ${randomUUID().slice(0, 8)}`);
    expect(await rename(renamed, other)).toBe(await slugOf(ownerA, alicesOther));
    const renamedAgain = await createAs(ownerB, 'catalogs', `renamed ${randomUUID().slice(0, 8)}`);
    expect(await rename(renamedAgain, title)).toBe(`${plain}-2`);
  });

  it("resolve a root slug shared by two organizations to the caller's own, else the oldest", async () => {
    const title = `Open Data ${randomUUID().slice(0, 8)}`;
    const alices = await createAs(ownerA, 'catalogs', title, { visibility: 'public' });
    const bobs = await createAs(ownerB, 'catalogs', title, { visibility: 'public' });
    const slug = await slugOf(null, alices);
    expect(await slugOf(null, bobs)).toBe(slug);
    const resolved = async (user: SignedInUser | null) =>
      (await call<{ node: { id: string } }>('GET', `/api/v1/browser/path/${slug}`, as(user))).body.node.id;
    expect(await resolved(ownerA)).toBe(alices);
    expect(await resolved(viewerA)).toBe(alices);
    expect(await resolved(ownerB)).toBe(bobs);
    expect(await resolved(null)).toBe(alices);
  });
});
