import fc from 'fast-check';
import type { Kind, Permission, Role, Visibility } from './world.js';

/**
 * What fast-check generates: commands with numbers in place of ids, resolved against the objects the
 * run has made so far when their step comes (so a shrunk run still names objects that exist). The
 * commands of one step are sent at once; they pick their objects near one `focus`, so that they often
 * meet — two moves of the same two catalogs, a delete and a create below it.
 */
export interface AbstractCommand {
  readonly type: 'create' | 'move' | 'delete' | 'visibility' | 'share' | 'unshare' | 'membership';
  /** Who acts, among the cast's people (the owner of the member's organization for `membership`). */
  readonly actor: number;
  /** The object acted on, counted from the step's focus. */
  readonly target: number;
  /** A create's or a move's parent counted from the focus; 0 is the root level. */
  readonly place: number;
  readonly kind: Kind;
  readonly visibility: Visibility | null;
  readonly permission: Permission;
  /** A share's principal among the people and organizations, or a member for `membership`. */
  readonly whom: number;
  /** A recursive delete; a removal rather than a role change for `membership`. */
  readonly drastic: boolean;
  readonly role: Role;
  readonly title: string;
  /** Whether to pick what the model lets succeed (see resolve.ts). */
  readonly fitting: boolean;
}

export interface Step {
  readonly focus: number;
  /**
   * Whether the commands of a step sent at once all act on the same two catalogs near the focus (moves
   * of each under the other, a delete of one and a create under it…), rather than anywhere near it.
   */
  readonly contend: boolean;
  readonly commands: readonly AbstractCommand[];
}

const weighted = <T>(...choices: readonly (readonly [T, number])[]) =>
  fc.oneof(...choices.map(([value, weight]) => ({ arbitrary: fc.constant(value), weight })));

const abstractCommand: fc.Arbitrary<AbstractCommand> = fc.record({
  type: weighted<AbstractCommand['type']>(
    ['create', 8],
    ['move', 5],
    ['delete', 2],
    ['visibility', 3],
    ['share', 3],
    ['unshare', 1],
    ['membership', 2],
  ),
  actor: fc.nat(63),
  target: fc.nat(3),
  place: fc.nat(4),
  kind: weighted<Kind>(['catalog', 5], ['collection', 3], ['item', 2]),
  visibility: weighted<Visibility | null>([null, 3], ['private', 2], ['org', 1], ['public', 2]),
  permission: fc.constantFrom<Permission>('viewer', 'editor'),
  whom: fc.nat(63),
  drastic: fc.boolean(),
  role: fc.constantFrom<Role>('viewer', 'editor', 'admin'),
  // Few titles, so siblings share them and slugs get their `-2`.
  title: fc.constantFrom('Data', 'Maps', 'Imagery'),
  fitting: weighted([true, 3], [false, 1]),
});

/** One command alone, or (twice as often) two to four at once. */
export const stepArbitrary: fc.Arbitrary<Step> = fc.record({
  focus: fc.nat(1_000),
  contend: weighted([true, 2], [false, 1]),
  commands: fc.oneof(
    { arbitrary: fc.array(abstractCommand, { minLength: 1, maxLength: 1 }), weight: 1 },
    { arbitrary: fc.array(abstractCommand, { minLength: 2, maxLength: 4 }), weight: 2 },
  ),
});
