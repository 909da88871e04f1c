import { addMember, apiKey, setActiveOrganization, signUp, type Role, type SignedInUser } from '../auth.js';
import { call, expectCommand } from '../http.js';
import { inPool } from './bounded.js';
import { people, personKeys, type CallerSpec, type PersonKey, type ShareTarget } from './vocabulary.js';

const otherOrgOwners = { B: 'orgBOwner', C: 'orgCOwner' } as const;

/**
 * The persons of the vocabulary as real users of the stack: A is the owner's personal organization, B
 * and C those of `orgBOwner` and `orgCOwner`; members are invited and accept, as a client would. Their
 * roles are those of the time objects are created; `settleMemberships` then demotes and removes the
 * creators the table speaks of.
 */
export class People {
  private readonly keys = new Map<string, Record<string, string>>();

  private constructor(
    readonly users: Readonly<Record<PersonKey, SignedInUser>>,
    readonly orgIds: { readonly A: string; readonly B: string; readonly C: string },
  ) {}

  static async signUp(): Promise<People> {
    const signedUp = await inPool(personKeys, 4, (key) => signUp({ name: `Rights table ${key}` }));
    const users = Object.fromEntries(personKeys.map((key, index) => [key, signedUp[index]])) as Record<
      PersonKey,
      SignedInUser
    >;
    const personalOrgs = Object.fromEntries(personKeys.map((key) => [key, users[key].orgId]));
    // One invitation after another: each is an append to its organization's stream.
    for (const key of personKeys) {
      const person = people[key];
      const inA = person.roleInAWhileCreating ?? person.roleInA;
      if (inA !== undefined && key !== 'owner') users[key] = await addMember(users.owner, users[key], inA);
      const other = person.otherOrg;
      const otherOwner = other === undefined ? key : otherOrgOwners[other.org];
      if (other !== undefined && otherOwner !== key) {
        users[key] = await addMember(users[otherOwner], users[key], other.role);
      }
      const personal = personalOrgs[key] ?? '';
      if (person.active === 'own' && users[key].orgId !== personal) {
        users[key] = await setActiveOrganization(users[key], personal);
      }
    }
    return new People(users, { A: users.owner.orgId, B: users.orgBOwner.orgId, C: users.orgCOwner.orgId });
  }

  /** The headers a caller of the table sends (none for an anonymous one). */
  headersOf(caller: CallerSpec): Record<string, string> {
    if ('anonymous' in caller) return {};
    if (caller.keyRole === undefined) return this.users[caller.person].headers;
    const headers = this.keys.get(`${caller.person}/${caller.keyRole}`);
    if (!headers) throw new Error(`no API key made for ${caller.person} as ${caller.keyRole}`);
    return headers;
  }

  /** The principal of a share, as the shares route takes it. */
  principalOf(target: ShareTarget): { type: 'user' | 'organization'; id: string } {
    return 'person' in target
      ? { type: 'user', id: this.users[target.person].userId }
      : { type: 'organization', id: this.orgIds[target.org] };
  }

  /** API keys for the callers that act through one (made by the person, in their active organization). */
  async makeKeys(callers: readonly CallerSpec[]): Promise<void> {
    for (const caller of callers) {
      if ('anonymous' in caller || caller.keyRole === undefined) continue;
      const name = `${caller.person}/${caller.keyRole}`;
      if (this.keys.has(name)) continue;
      const key = await apiKey(this.users[caller.person], { role: caller.keyRole, name: `rights ${name}` });
      this.keys.set(name, key.headers);
    }
  }

  /** Once the objects exist: the creators whose role changes get their final role in A, or none. */
  async settleMemberships(): Promise<void> {
    for (const key of personKeys) {
      const { roleInAWhileCreating, roleInA } = people[key];
      if (roleInAWhileCreating === undefined || roleInAWhileCreating === roleInA) continue;
      await this.changeRoleInA(key, roleInA ?? null);
    }
  }

  private async changeRoleInA(key: PersonKey, role: Role | null): Promise<void> {
    const { headers } = this.users.owner;
    const userId = this.users[key].userId;
    const answer =
      role === null
        ? await call('POST', '/api/auth/organization/remove-member', { headers, body: { userId } })
        : await call('POST', '/api/auth/organization/update-member-role', {
            headers,
            body: { userId, role },
          });
    await expectCommand(answer, 200, `${role === null ? 'remove' : 'demote'} ${key}`);
  }
}
