import { describe, expect, it } from 'vitest';
import { userInvitationListSchema, type UserInvitationList } from '@portal/contracts';
import {
  apiKey,
  createOrganization,
  jwtOf,
  setActiveOrganization,
  signUp,
  uniqueEmail,
  type SignedInUser,
} from './support/auth.js';
import { call, expectCommand, expectMatchesContract } from './support/http.js';

const PATH = '/api/auth/organization/list-user-invitations';

async function invite(by: SignedInUser, email: string, role: string): Promise<string> {
  const invited = await call<{ id: string }>('POST', '/api/auth/organization/invite-member', {
    headers: by.headers,
    body: { email, role },
  });
  await expectCommand(invited, 201, 'invite-member');
  return invited.body.id;
}

async function myInvitations(headers: Record<string, string>): Promise<UserInvitationList['items']> {
  const listed = await call<UserInvitationList>('GET', PATH, { headers });
  expect(listed.status).toBe(200);
  expectMatchesContract(userInvitationListSchema, listed.body);
  return listed.body.items;
}

describe("a user's own pending invitations", () => {
  it('lists those addressed to the signed-in email, newest first, with the organization and sender', async () => {
    const alice = await signUp({ name: 'Alice' });
    const bobEmail = uniqueEmail('bob');
    // Sent before Bob has an account, in capitals: matched as the acceptance matches it.
    const first = await invite(alice, bobEmail.toUpperCase(), 'viewer');
    const toSomeoneElse = await invite(alice, uniqueEmail('carol'), 'viewer');
    // The session moves to another organization of Alice's, which invites Bob too.
    const team = await createOrganization(alice, 'Survey team');
    const second = await invite(await setActiveOrganization(alice, team), bobEmail, 'editor');
    const bob = await signUp({ email: bobEmail, name: 'Bob' });

    const items = await myInvitations(bob.headers);
    expect(items.map((invitation) => invitation.id)).toEqual([second, first]);
    expect(items[0]).toMatchObject({
      organizationId: team,
      organizationName: 'Survey team',
      email: bobEmail,
      role: 'editor',
      invitedBy: alice.userId,
      invitedByName: 'Alice',
    });
    expect(items[1]).toMatchObject({ organizationId: alice.orgId, role: 'viewer' });
    expect(items.map((invitation) => invitation.id)).not.toContain(toSomeoneElse);
    // A JWT of the same session answers the same.
    expect(await myInvitations((await jwtOf(bob)).headers)).toEqual(items);
    // Nobody else sees them.
    expect(await myInvitations((await signUp()).headers)).toEqual([]);
  });

  it('drops an invitation once accepted or cancelled, and one to an organization joined already', async () => {
    const owner = await signUp({ name: 'Owner' });
    const other = await signUp({ name: 'Other owner' });
    const dana = await signUp({ name: 'Dana' });
    const accepted = await invite(owner, dana.email, 'viewer');
    const cancelled = await invite(other, dana.email, 'editor');
    const kept = await invite(await signUp({ name: 'Third' }), dana.email, 'viewer');
    expect((await myInvitations(dana.headers)).map((invitation) => invitation.id).sort()).toEqual(
      [accepted, cancelled, kept].sort(),
    );

    await expectCommand(
      await call('POST', '/api/auth/organization/accept-invitation', {
        headers: dana.headers,
        body: { invitationId: accepted },
      }),
      200,
      'accept-invitation',
    );
    await expectCommand(
      await call('POST', '/api/auth/organization/cancel-invitation', {
        headers: other.headers,
        body: { invitationId: cancelled },
      }),
      200,
      'cancel-invitation',
    );
    expect((await myInvitations(dana.headers)).map((invitation) => invitation.id)).toEqual([kept]);

    // A second invitation to an organization Dana belongs to already cannot be accepted: not listed.
    await invite(owner, dana.email, 'editor');
    expect((await myInvitations(dana.headers)).map((invitation) => invitation.id)).toEqual([kept]);
  });

  it('answers 401 to an anonymous caller and 403 to an API key', async () => {
    const anonymous = await call<{ message: string }>('GET', PATH, { as: 'anonymous' });
    expect(anonymous.status).toBe(401);
    expect(typeof anonymous.body.message).toBe('string');
    const owner = await signUp();
    const key = await apiKey(owner, { role: 'admin' });
    const byKey = await call<{ message: string }>('GET', PATH, { headers: key.headers });
    expect(byKey.status).toBe(403);
    expect(byKey.body.message).toMatch(/list your invitations/);
  });
});
