import { describe, expect, it } from 'vitest';
import type { Answer, Command } from './commands.js';
import { outcomesOf } from './linearize.js';
import { predict } from './predict.js';
import { canEdit, canRead, objectOf, type Actor, type Role, type World, type WorldObject } from './world.js';

/**
 * The property test's own judge, on hand-made worlds: that it refuses what issue-sized bugs look like
 * (two moves closing a cycle, a delete losing an acknowledged create) and reads docs/identity.md as
 * written, so that a green property run means something.
 */

const org = 'org-a';
const other = 'org-b';
const owner: Actor = { name: 'owner', userId: 'u-owner', orgId: org };
const editor: Actor = { name: 'editor', userId: 'u-editor', orgId: org };
const viewer: Actor = { name: 'viewer', userId: 'u-viewer', orgId: org };
const stranger: Actor = { name: 'stranger', userId: 'u-stranger', orgId: other };

function object(id: string, fields: Partial<WorldObject> = {}): WorldObject {
  return {
    id,
    kind: 'catalog',
    orgId: org,
    createdBy: owner.userId,
    parentId: null,
    visibility: 'org',
    shares: [],
    tombstone: false,
    ...fields,
  };
}

function worldOf(...objects: WorldObject[]): World {
  const roles = new Map<string, Map<string, Role>>([
    [
      org,
      new Map<string, Role>([
        [owner.userId, 'owner'],
        [editor.userId, 'editor'],
        [viewer.userId, 'viewer'],
      ]),
    ],
    [other, new Map<string, Role>([[stranger.userId, 'owner']])],
  ]);
  return { objects: new Map(objects.map((each) => [each.id, each])), roles };
}

const answered = (status: number, code: string | null = null, createdId: string | null = null): Answer => ({
  status,
  code,
  message: null,
  createdId,
  position: null,
});

const move = (actor: Actor, id: string, parentId: string | null): Command => ({
  type: 'move',
  actor,
  id,
  parentId,
});

describe('the order finder', () => {
  const world = worldOf(object('p'), object('q'));

  it('explains no pair of moves that both succeeded in closing a cycle', () => {
    const batch = [
      { command: move(owner, 'p', 'q'), answer: answered(200) },
      { command: move(owner, 'q', 'p'), answer: answered(200) },
    ];
    expect(outcomesOf(world, batch)).toEqual([]);
  });

  it('explains one move and one cycle refusal by the order that ran the winner first', () => {
    const batch = [
      { command: move(owner, 'p', 'q'), answer: answered(409, 'CYCLE') },
      { command: move(owner, 'q', 'p'), answer: answered(200) },
    ];
    const [only, ...more] = outcomesOf(world, batch);
    expect(more).toEqual([]);
    expect(only && objectOf(only, 'q').parentId).toBe('p');
  });

  it('explains no plain delete and create below it that both succeeded', () => {
    const batch = [
      {
        command: { type: 'delete', actor: owner, id: 'p', recursive: false } as const,
        answer: answered(200),
      },
      {
        command: {
          type: 'create',
          actor: owner,
          kind: 'catalog',
          parentId: 'p',
          visibility: null,
          title: 'Child',
        } as const,
        answer: answered(201, null, 'child'),
      },
    ];
    expect(outcomesOf(world, batch)).toEqual([]);
  });

  it('keeps both ends when two visibility changes both succeed, for the service to settle', () => {
    const batch = (['private', 'public'] as const).map((visibility) => ({
      command: { type: 'visibility', actor: owner, id: 'p', visibility } as const,
      answer: answered(200),
    }));
    expect(
      outcomesOf(world, batch)
        .map((end) => objectOf(end, 'p').visibility)
        .sort(),
    ).toEqual(['private', 'public']);
  });

  it('takes a 409 CONCURRENCY_CONFLICT for a lost race only when the command had company', () => {
    const buried = {
      command: {
        type: 'create',
        actor: owner,
        kind: 'catalog',
        parentId: 'p',
        visibility: null,
        title: 'Buried',
      } as const,
      answer: answered(409, 'CONCURRENCY_CONFLICT'),
    };
    expect(outcomesOf(world, [buried])).toEqual([]);
    expect(
      outcomesOf(world, [buried, { command: move(owner, 'q', 'p'), answer: answered(200) }]),
    ).toHaveLength(1);
  });
});

describe('the rights, as docs/identity.md gives them', () => {
  it('lets a share reach down to, not into, an object private on its own', () => {
    const world = worldOf(
      object('top', { shares: [{ principal: { type: 'user', id: stranger.userId }, permission: 'editor' }] }),
      object('open', { parentId: 'top' }),
      object('kept', { parentId: 'top', visibility: 'private', createdBy: editor.userId }),
    );
    expect(['top', 'open', 'kept'].map((id) => canRead(world, stranger, id))).toEqual([true, true, false]);
    expect(canEdit(world, stranger, 'open')).toBe(true);
    expect(['kept'].map((id) => [canRead(world, viewer, id), canRead(world, editor, id)])).toEqual([
      [false, true],
    ]);
    expect(canRead(world, null, 'open')).toBe(false);
  });

  it('refuses a move into a shared catalog to an editor who did not make all of it, not to an admin', () => {
    const world = worldOf(
      object('shared', {
        shares: [{ principal: { type: 'organization', id: other }, permission: 'viewer' }],
      }),
      object('mine', { createdBy: editor.userId }),
      object('below', { parentId: 'mine' }),
    );
    expect(predict(world, move(editor, 'mine', 'shared')).expected).toEqual({
      kind: 'refused',
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(predict(world, move(owner, 'mine', 'shared')).expected).toEqual({ kind: 'success', status: 200 });
  });

  it('refuses a widening move with 403 before the tree rule that also refuses it', () => {
    const world = worldOf(
      object('top'),
      object('below', {
        parentId: 'top',
        shares: [{ principal: { type: 'user', id: stranger.userId }, permission: 'viewer' }],
      }),
    );
    expect(predict(world, move(editor, 'top', 'below')).expected).toMatchObject({ status: 403 });
    expect(predict(world, move(owner, 'top', 'below')).expected).toMatchObject({
      status: 409,
      code: 'CYCLE',
    });
  });
});
