import { randomUUID } from 'node:crypto';
import {
  apiKeyListSchema,
  createdApiKeySchema,
  invitationListSchema,
  invitationSchema,
  invitationViewSchema,
  memberListSchema,
  organizationListSchema,
  organizationMembershipSchema,
} from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import {
  addMember,
  apiKey,
  createOrganization,
  jwtOf,
  setActiveOrganization,
  signUp,
  uniqueEmail,
  type SignedInUser,
} from './support/auth.js';
import { call, expectCommand, expectMatchesContract } from './support/http.js';

async function roleOf(headers: Record<string, string>): Promise<unknown> {
  const response = await call('GET', '/api/v1/protected', { headers });
  return response.status === 200 ? response.body.role : response.status;
}

async function may(headers: Record<string, string>, permission: Record<string, string[]>): Promise<boolean> {
  const response = await call<{ success: boolean }>('POST', '/api/auth/organization/has-permission', {
    headers,
    body: { permission },
  });
  expect(response.status).toBe(200);
  return response.body.success;
}

function changeRole(admin: SignedInUser, userId: string, role: string) {
  return call('POST', '/api/auth/organization/update-member-role', {
    headers: admin.headers,
    body: { userId, role },
  });
}

describe('organizations', () => {
  it('creates an organization owned by its creator and lists it with the personal one', async () => {
    const user = await signUp();
    const created = await call('POST', '/api/auth/organization/create', {
      headers: user.headers,
      body: { name: 'Field Team Süd' },
    });
    await expectCommand(created, 201);
    expectMatchesContract(organizationMembershipSchema, created.body);
    expect(created.body).toMatchObject({ name: 'Field Team Süd', role: 'owner', personal: false });
    expect(created.body.slug).toMatch(/^field-team-sud(-[0-9a-f]{8})?$/);

    const list = await call('GET', '/api/auth/organization/list', { headers: user.headers });
    expect(list.status).toBe(200);
    expectMatchesContract(organizationListSchema, list.body);
    expect(list.body).toMatchObject({
      activeOrganizationId: user.orgId,
      items: [
        { id: user.orgId, personal: true, role: 'owner' },
        { id: created.body.id, personal: false, role: 'owner' },
      ],
    });
  });

  it('keeps slugs unique', async () => {
    const user = await signUp();
    const slug = `team-${randomUUID().slice(0, 8)}`;
    const first = await call('POST', '/api/auth/organization/create', {
      headers: user.headers,
      body: { name: 'One', slug },
    });
    await expectCommand(first, 201);
    const second = await call('POST', '/api/auth/organization/create', {
      headers: user.headers,
      body: { name: 'Two', slug },
    });
    expect(second.status).toBe(409);
  });

  it('switches the active organization of the session, to a member only', async () => {
    const user = await signUp();
    const orgId = await createOrganization(user, 'Second');
    const switched = await call('POST', '/api/auth/organization/set-active', {
      headers: user.headers,
      body: { organizationId: orgId },
    });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ activeOrganization: { id: orgId, role: 'owner' } });
    const me = await call('GET', '/api/v1/users/me', { headers: user.headers });
    expect(me.body).toMatchObject({ activeOrganization: { id: orgId } });
    // A JWT issued now acts in it.
    const bearer = await jwtOf(user);
    expect(await call('GET', '/api/v1/protected', { headers: bearer.headers })).toMatchObject({
      body: { organizationId: orgId },
    });
    // JWTs cannot move the session.
    const withJwt = await call('POST', '/api/auth/organization/set-active', {
      headers: bearer.headers,
      body: { organizationId: user.orgId },
    });
    expect(withJwt.status).toBe(403);

    const stranger = await signUp();
    const notMine = await call('POST', '/api/auth/organization/set-active', {
      headers: user.headers,
      body: { organizationId: stranger.orgId },
    });
    expect(notMine.status).toBe(404);
  });
});

describe('invitations and members', () => {
  it('invites a member who accepts with the invited email, across two users', async () => {
    const alice = await signUp({ name: 'Alice' });
    const bobEmail = uniqueEmail('bob');
    const invited = await call('POST', '/api/auth/organization/invite-member', {
      headers: alice.headers,
      body: { email: bobEmail.toUpperCase(), role: 'editor' },
    });
    await expectCommand(invited, 201);
    expectMatchesContract(invitationSchema, invited.body);
    expect(invited.body).toMatchObject({ organizationId: alice.orgId, email: bobEmail, role: 'editor' });
    const invitationId = String(invited.body.id);

    // Bob signs up after the invitation; Carol, with another email, cannot take it.
    const bob = await signUp({ email: bobEmail, name: 'Bob' });
    const carol = await signUp({ name: 'Carol' });
    const stolen = await call('POST', '/api/auth/organization/accept-invitation', {
      headers: carol.headers,
      body: { invitationId },
    });
    expect(stolen.status).toBe(404);

    const accepted = await call('POST', '/api/auth/organization/accept-invitation', {
      headers: bob.headers,
      body: { invitationId },
    });
    await expectCommand(accepted, 200);
    expect(accepted.body).toMatchObject({ id: alice.orgId, role: 'editor', personal: true });
    const again = await call('POST', '/api/auth/organization/accept-invitation', {
      headers: bob.headers,
      body: { invitationId },
    });
    expect(again.status).toBe(409);

    const members = await call('GET', '/api/auth/organization/list-members', { headers: alice.headers });
    expect(members.status).toBe(200);
    expectMatchesContract(memberListSchema, members.body);
    expect(members.body.items).toEqual([
      expect.objectContaining({ userId: alice.userId, role: 'owner', name: 'Alice' }),
      expect.objectContaining({ userId: bob.userId, role: 'editor', name: 'Bob', email: bobEmail }),
    ]);

    const bobInAlices = await setActiveOrganization(bob, alice.orgId);
    expect(await roleOf(bobInAlices.headers)).toBe('editor');
    const bobsView = await call('GET', '/api/auth/organization/list-members', {
      headers: bobInAlices.headers,
    });
    expect(bobsView.status).toBe(200);
  });

  it('applies role changes and removals to the very next request, JWTs included', async () => {
    const alice = await signUp();
    const bob = await addMember(alice, await signUp(), 'editor');
    const bobsJwt = await jwtOf(bob);
    expect(await may(bob.headers, { object: ['create', 'update'] })).toBe(true);

    await expectCommand(await changeRole(alice, bob.userId, 'viewer'), 200);
    expect(await roleOf(bob.headers)).toBe('viewer');
    // The token still says editor; the current role is what counts.
    expect(await roleOf(bobsJwt.headers)).toBe('viewer');
    expect(await may(bob.headers, { object: ['create'] })).toBe(false);
    expect(await may(bob.headers, { object: ['read'] })).toBe(true);

    const removed = await call('POST', '/api/auth/organization/remove-member', {
      headers: alice.headers,
      body: { userId: bob.userId },
    });
    await expectCommand(removed, 200);
    expect(removed.body).toEqual({ organizationId: alice.orgId, userId: bob.userId, role: 'viewer' });
    expect(await roleOf(bob.headers)).toBeNull();
    expect(await roleOf(bobsJwt.headers)).toBeNull();
    expect(await may(bob.headers, { object: ['read'] })).toBe(false);
    expect((await call('GET', '/api/auth/organization/list-members', { headers: bob.headers })).status).toBe(
      403,
    );
  });

  it('keeps member management to admins, and owners to owners', async () => {
    const owner = await signUp();
    const editor = await addMember(owner, await signUp(), 'editor');
    const admin = await addMember(owner, await signUp(), 'admin');

    const byEditor = await call('POST', '/api/auth/organization/invite-member', {
      headers: editor.headers,
      body: { email: uniqueEmail(), role: 'viewer' },
    });
    expect(byEditor.status).toBe(403);
    expect((await changeRole(editor, admin.userId, 'viewer')).status).toBe(403);

    // An admin manages editors and viewers, but not owners.
    await expectCommand(await changeRole(admin, editor.userId, 'viewer'), 200);
    expect((await changeRole(admin, editor.userId, 'owner')).status).toBe(403);
    expect((await changeRole(admin, owner.userId, 'viewer')).status).toBe(403);
    const ownerInvite = await call('POST', '/api/auth/organization/invite-member', {
      headers: admin.headers,
      body: { email: uniqueEmail(), role: 'owner' },
    });
    expect(ownerInvite.status).toBe(403);

    // The last owner can neither leave nor step down.
    const leaving = await call('POST', '/api/auth/organization/remove-member', {
      headers: owner.headers,
      body: { userId: owner.userId },
    });
    expect(leaving.status).toBe(409);
    expect((await changeRole(owner, owner.userId, 'admin')).status).toBe(409);

    // Anyone may leave.
    const editorLeaves = await call('POST', '/api/auth/organization/remove-member', {
      headers: editor.headers,
      body: { userId: editor.userId },
    });
    await expectCommand(editorLeaves, 200);
  });

  it("keeps an owner's admin-role API key from touching owners", async () => {
    const owner = await signUp();
    const coOwner = await addMember(owner, await signUp(), 'owner');
    const editor = await addMember(owner, await signUp(), 'editor');
    const key = await apiKey(owner, { role: 'admin' });
    const asKey = (path: string, body: object) =>
      call('POST', `/api/auth/organization/${path}`, { headers: key.headers, body });

    expect((await asKey('update-member-role', { userId: editor.userId, role: 'owner' })).status).toBe(403);
    expect((await asKey('update-member-role', { userId: coOwner.userId, role: 'viewer' })).status).toBe(403);
    expect((await asKey('remove-member', { userId: coOwner.userId })).status).toBe(403);
    expect((await asKey('invite-member', { email: uniqueEmail(), role: 'owner' })).status).toBe(403);
    // Within its cap it manages members like the admin it is.
    await expectCommand(await asKey('update-member-role', { userId: editor.userId, role: 'viewer' }), 200);
    expect(await roleOf(coOwner.headers)).toBe('owner');
  });

  it('answers anonymous member management with 401', async () => {
    const response = await call('POST', '/api/auth/organization/invite-member', {
      body: { email: uniqueEmail(), role: 'viewer' },
    });
    expect(response.status).toBe(401);
  });
});

async function invite(by: SignedInUser, email: string, role: string): Promise<string> {
  const invited = await call('POST', '/api/auth/organization/invite-member', {
    headers: by.headers,
    body: { email, role },
  });
  expect(invited.status).toBe(201);
  return String(invited.body.id);
}

async function invitationsOf(admin: SignedInUser, query = '') {
  const listed = await call('GET', `/api/auth/organization/list-invitations${query}`, {
    headers: admin.headers,
  });
  expect(listed.status).toBe(200);
  expectMatchesContract(invitationListSchema, listed.body);
  return listed.body.items as { id: string; status: string; cancelReason: string | null }[];
}

function accept(user: SignedInUser, invitationId: string) {
  return call('POST', '/api/auth/organization/accept-invitation', {
    headers: user.headers,
    body: { invitationId },
  });
}

describe('invitations end with their sender', () => {
  it("refuses a removed admin's invitation to an address they control (the attack)", async () => {
    const owner = await signUp();
    const admin = await addMember(owner, await signUp(), 'admin');
    // The admin, about to be removed, invites an address of their own as admin.
    const alternate = uniqueEmail('alternate');
    const invitationId = await invite(admin, alternate, 'admin');
    const harmless = await invite(owner, uniqueEmail('colleague'), 'viewer');
    expect(await invitationsOf(owner, '?status=pending')).toEqual([
      expect.objectContaining({ id: harmless, status: 'pending' }),
      expect.objectContaining({ id: invitationId, status: 'pending', invitedBy: admin.userId }),
    ]);

    const removed = await call('POST', '/api/auth/organization/remove-member', {
      headers: owner.headers,
      body: { userId: admin.userId },
    });
    expect(removed.status).toBe(200);

    const comeback = await signUp({ email: alternate });
    const accepted = await accept(comeback, invitationId);
    expect(accepted.status).toBe(409);
    expect(accepted.body).toMatchObject({ code: 'INVALID_STATE' });
    const members = await call('GET', '/api/auth/organization/list-members', { headers: owner.headers });
    expect(members.body.items).not.toContainEqual(expect.objectContaining({ userId: comeback.userId }));
    expect(await invitationsOf(owner, '?status=pending')).toEqual([
      expect.objectContaining({ id: harmless, cancelReason: null }),
    ]);
    expect(await invitationsOf(owner)).toContainEqual(
      expect.objectContaining({ id: invitationId, status: 'cancelled', cancelReason: 'inviter-removed' }),
    );
  });

  it("ends an owner's owner invitations when they are demoted to admin, and keeps the others", async () => {
    const owner = await signUp();
    const coOwner = await addMember(owner, await signUp(), 'owner');
    const asOwner = await invite(coOwner, uniqueEmail(), 'owner');
    const asEditor = await invite(coOwner, uniqueEmail(), 'editor');
    expect((await changeRole(owner, coOwner.userId, 'admin')).status).toBe(200);
    expect(await invitationsOf(owner)).toContainEqual(
      expect.objectContaining({ id: asOwner, status: 'cancelled', cancelReason: 'inviter-demoted' }),
    );
    expect(await invitationsOf(owner, '?status=pending')).toEqual([
      expect.objectContaining({ id: asEditor }),
    ]);
  });
});

describe('listing and cancelling invitations', () => {
  it('lets an admin cancel an invitation, which can then not be accepted', async () => {
    const owner = await signUp();
    const admin = await addMember(owner, await signUp(), 'admin');
    const email = uniqueEmail('invitee');
    const invitationId = await invite(owner, email, 'editor');

    const cancelled = await call('POST', '/api/auth/organization/cancel-invitation', {
      headers: admin.headers,
      body: { invitationId },
    });
    expect(cancelled.status).toBe(200);
    expectMatchesContract(invitationViewSchema, cancelled.body);
    expect(cancelled.body).toMatchObject({
      id: invitationId,
      status: 'cancelled',
      cancelReason: 'cancelled',
    });
    expect(cancelled.headers.get('x-event-position')).not.toBeNull();

    // Cancelling again records nothing and answers as it is.
    const again = await call('POST', '/api/auth/organization/cancel-invitation', {
      headers: admin.headers,
      body: { invitationId },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'cancelled' });
    expect(again.headers.get('x-event-position')).toBeNull();

    const invitee = await signUp({ email });
    expect((await accept(invitee, invitationId)).status).toBe(409);
  });

  it('keeps invitations to admins, owner invitations to owners, and each organization to itself', async () => {
    const owner = await signUp();
    const admin = await addMember(owner, await signUp(), 'admin');
    const editor = await addMember(owner, await signUp(), 'editor');
    const asOwner = await invite(owner, uniqueEmail(), 'owner');
    const cancelAs = (user: SignedInUser, invitationId: string) =>
      call('POST', '/api/auth/organization/cancel-invitation', {
        headers: user.headers,
        body: { invitationId },
      });

    expect(
      (await call('GET', '/api/auth/organization/list-invitations', { headers: editor.headers })).status,
    ).toBe(403);
    expect((await cancelAs(editor, asOwner)).status).toBe(403);
    expect((await cancelAs(admin, asOwner)).status).toBe(403);
    const stranger = await signUp();
    expect((await cancelAs(stranger, asOwner)).status).toBe(404);
    expect(await invitationsOf(stranger)).toEqual([]);

    const member = await signUp();
    const joined = await invite(owner, member.email, 'viewer');
    expect((await accept(member, joined)).status).toBe(200);
    expect(await invitationsOf(owner)).toContainEqual(
      expect.objectContaining({ id: joined, status: 'accepted', acceptedBy: member.userId }),
    );
    const late = await cancelAs(owner, joined);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'INVALID_STATE' });

    const badFilter = await call('GET', '/api/auth/organization/list-invitations?status=open', {
      headers: owner.headers,
    });
    expect(badFilter.status).toBe(400);
  });
});

describe('API keys', () => {
  it('creates a key shown once, acting as its creator with its own role', async () => {
    const owner = await signUp();
    const created = await call('POST', '/api/auth/api-key/create', {
      headers: owner.headers,
      body: { name: 'nightly ingest', role: 'editor', expiresInDays: 30 },
    });
    await expectCommand(created, 201);
    expectMatchesContract(createdApiKeySchema, created.body);
    const key = String(created.body.key);
    expect(key).toMatch(/^pcs_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({
      role: 'editor',
      organizationId: owner.orgId,
      createdBy: owner.userId,
    });
    expect(key.startsWith(String(created.body.prefix))).toBe(true);

    const asKey = { authorization: `Bearer ${key}` };
    expect(await call('GET', '/api/v1/protected', { headers: asKey })).toMatchObject({
      status: 200,
      body: { userId: owner.userId, organizationId: owner.orgId, role: 'editor' },
    });
    expect(await may(asKey, { object: ['create'] })).toBe(true);
    expect(await may(asKey, { apiKey: ['create'] })).toBe(false);

    const list = await call('GET', '/api/auth/api-key/list', { headers: owner.headers });
    expect(list.status).toBe(200);
    expectMatchesContract(apiKeyListSchema, list.body);
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(list.body.items).toEqual([expect.objectContaining({ id: created.body.id, revokedAt: null })]);
  });

  it('refuses keys above the creator, keys from editors, and keys made with keys', async () => {
    const owner = await signUp();
    const admin = await addMember(owner, await signUp(), 'admin');
    const editor = await addMember(owner, await signUp(), 'editor');
    const create = (headers: Record<string, string>, role: string) =>
      call('POST', '/api/auth/api-key/create', { headers, body: { name: 'k', role } });
    expect((await create(admin.headers, 'owner')).status).toBe(403);
    await expectCommand(await create(admin.headers, 'admin'), 201);
    expect((await create(editor.headers, 'viewer')).status).toBe(403);
    const key = await apiKey(owner, { role: 'admin' });
    expect((await create(key.headers, 'viewer')).status).toBe(403);
    expect((await call('GET', '/api/auth/api-key/list', { headers: editor.headers })).status).toBe(403);
  });

  it('stops a revoked key at once', async () => {
    const owner = await signUp();
    const key = await apiKey(owner);
    expect((await call('GET', '/api/v1/protected', { headers: key.headers })).status).toBe(200);
    const revoked = await call('POST', '/api/auth/api-key/revoke', {
      headers: owner.headers,
      body: { keyId: key.id },
    });
    await expectCommand(revoked, 200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    for (const path of ['/api/v1/protected', '/api/v1/browser/root']) {
      const response = await call('GET', path, { headers: key.headers });
      expect(response.status, path).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Bearer');
    }
    // Another organization's admin cannot see it.
    const stranger = await signUp();
    const foreign = await call('POST', '/api/auth/api-key/revoke', {
      headers: stranger.headers,
      body: { keyId: key.id },
    });
    expect(foreign.status).toBe(404);
  });

  it("follows its creator's current role, and dies when they leave the organization", async () => {
    const owner = await signUp();
    const admin = await addMember(owner, await signUp(), 'admin');
    const key = await apiKey(admin, { role: 'admin' });
    expect(await roleOf(key.headers)).toBe('admin');

    await expectCommand(await changeRole(owner, admin.userId, 'viewer'), 200);
    expect(await roleOf(key.headers)).toBe('viewer');

    const removed = await call('POST', '/api/auth/organization/remove-member', {
      headers: owner.headers,
      body: { userId: admin.userId },
    });
    await expectCommand(removed, 200);
    expect(await roleOf(key.headers)).toBe(401);
  });
});

describe('has-permission', () => {
  it('answers by the active role, false for anonymous callers', async () => {
    const owner = await signUp();
    expect(await may(owner.headers, { member: ['manage-owners'], audit: ['read'] })).toBe(true);
    expect(await may({}, { object: ['read'] })).toBe(false);
  });

  it('refuses unknown resources and actions with 400', async () => {
    const response = await call('POST', '/api/auth/organization/has-permission', {
      body: { permission: { object: ['fly'] } },
    });
    expect(response.status).toBe(400);
    expect(String(response.body.message)).toContain('permission.object[0]');
  });
});
