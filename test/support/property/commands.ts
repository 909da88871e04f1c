import type { Actor, Kind, Permission, Principal, Role, Visibility } from './world.js';

/** One request (or, for `rejoin`, one invitation accepted) the property test sends, with its ids resolved. */
export type Command =
  | {
      readonly type: 'create';
      readonly actor: Actor;
      readonly kind: Kind;
      readonly parentId: string | null;
      readonly visibility: Visibility | null;
      readonly title: string;
    }
  | { readonly type: 'move'; readonly actor: Actor; readonly id: string; readonly parentId: string | null }
  | { readonly type: 'delete'; readonly actor: Actor; readonly id: string; readonly recursive: boolean }
  | {
      readonly type: 'visibility';
      readonly actor: Actor;
      readonly id: string;
      readonly visibility: Visibility;
    }
  | {
      readonly type: 'share';
      readonly actor: Actor;
      readonly id: string;
      readonly principal: Principal;
      readonly permission: Permission;
    }
  | { readonly type: 'unshare'; readonly actor: Actor; readonly id: string; readonly principal: Principal }
  /** The organization's owner changes a member's role, removes them, or invites them back and they accept. */
  | { readonly type: 'set-role'; readonly actor: Actor; readonly member: Actor; readonly role: Role }
  | { readonly type: 'remove-member'; readonly actor: Actor; readonly member: Actor }
  | { readonly type: 'rejoin'; readonly actor: Actor; readonly member: Actor; readonly role: Role };

/** What the service answered, reduced to what the model compares and needs. */
export interface Answer {
  readonly status: number;
  /** The error body's `code`; `null` for a success. */
  readonly code: string | null;
  readonly message: string | null;
  /** A create's new id. */
  readonly createdId: string | null;
  /** `X-Event-Position`, for waiting until the read models include the write. */
  readonly position: string | null;
}

/** `name` turns a user's or an organization's id into words; objects go by their id's first 8 characters. */
export function describeCommand(command: Command, name: (id: string) => string = (id) => id): string {
  const who = command.actor.name;
  const short = (id: string | null) => (id === null ? 'root' : id.slice(0, 8));
  switch (command.type) {
    case 'create':
      return `${who} creates ${command.kind} "${command.title}" under ${short(command.parentId)} (${command.visibility ?? 'default'})`;
    case 'move':
      return `${who} moves ${short(command.id)} under ${short(command.parentId)}`;
    case 'delete':
      return `${who} deletes ${short(command.id)}${command.recursive ? ' recursively' : ''}`;
    case 'visibility':
      return `${who} makes ${short(command.id)} ${command.visibility}`;
    case 'share':
      return `${who} shares ${short(command.id)} with ${name(command.principal.id)} as ${command.permission}`;
    case 'unshare':
      return `${who} unshares ${short(command.id)} from ${name(command.principal.id)}`;
    case 'set-role':
      return `${who} makes ${command.member.name} ${command.role}`;
    case 'remove-member':
      return `${who} removes ${command.member.name}`;
    case 'rejoin':
      return `${who} invites ${command.member.name} back as ${command.role}, who accepts`;
    default:
      return unreachable(command);
  }
}

export function unreachable(value: never): never {
  throw new Error(`unhandled: ${JSON.stringify(value)}`);
}
