import { describe, expect, it } from 'vitest';
import { mayRead, type ModelCaller, type ModelObject } from './visibility-model.js';

const orgA = 'org-a';
const orgB = 'org-b';
const object = (fields: Partial<ModelObject> = {}): ModelObject => ({
  orgId: orgA,
  visibility: 'org',
  createdBy: 'alice',
  shares: [],
  ...fields,
});
const caller = (userId: string | null, orgId: string | null, role: ModelCaller['role']): ModelCaller => ({
  userId,
  orgId,
  role,
});
const anonymous = caller(null, null, null);
const viewerOfA = caller('victor', orgA, 'viewer');
const adminOfA = caller('ada', orgA, 'admin');
const memberOfB = caller('eve', orgB, 'viewer');
const toB = { principal: { type: 'organization', id: orgB }, permission: 'viewer' } as const;

describe('the visibility model (docs/identity.md)', () => {
  it('shows public objects to everyone and objects recorded before identity too', () => {
    expect(mayRead(anonymous, [object({ visibility: 'public' })])).toBe(true);
    expect(mayRead(anonymous, [object({ orgId: null, visibility: 'public', createdBy: null })])).toBe(true);
  });

  it('takes the most restrictive visibility on the path', () => {
    const path = [object({ visibility: 'private' }), object({ visibility: 'public' })];
    expect(mayRead(anonymous, path)).toBe(false);
    expect(mayRead(viewerOfA, path)).toBe(false);
    expect(mayRead(adminOfA, path)).toBe(true);
  });

  it('shows org objects to members acting in the organization only', () => {
    expect(mayRead(viewerOfA, [object()])).toBe(true);
    expect(mayRead(caller('victor', orgB, 'owner'), [object()])).toBe(false);
  });

  it('shows private objects to admins, owners and their creator', () => {
    const own = object({ visibility: 'private', createdBy: 'victor' });
    expect(mayRead(viewerOfA, [own])).toBe(true);
    expect(mayRead(caller('walter', orgA, 'editor'), [own])).toBe(false);
    expect(mayRead(caller('olga', orgA, 'owner'), [own])).toBe(true);
  });

  it('lets a share reach below it, down to but not into a private object, which can be shared itself', () => {
    const shared = object({ visibility: 'private', shares: [toB] });
    const child = object();
    const privateChild = object({ visibility: 'private' });
    expect(mayRead(memberOfB, [shared])).toBe(true);
    expect(mayRead(memberOfB, [shared, child])).toBe(true);
    expect(mayRead(memberOfB, [shared, privateChild])).toBe(false);
    expect(mayRead(memberOfB, [shared, privateChild, child])).toBe(false);
    expect(mayRead(memberOfB, [shared, object({ visibility: 'private', shares: [toB] })])).toBe(true);
    expect(mayRead(caller('eve', orgA, 'viewer'), [object({ visibility: 'private', shares: [toB] })])).toBe(
      false,
    );
  });
});
