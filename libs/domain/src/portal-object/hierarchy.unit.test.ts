import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { liveParent, newId } from './decider-test-kit.js';
import { canBeAtRoot, canContain, checkPlacement, parentNotFound } from './hierarchy.js';
import { portalKinds } from './types.js';

describe('kind-parent table', () => {
  it('lets catalogs hold catalogs, collections and items; collections hold items; items hold nothing', () => {
    const allowed = portalKinds.flatMap((parent) =>
      portalKinds.filter((child) => canContain(parent, child)).map((child) => `${parent}>${child}`),
    );
    expect(allowed).toStrictEqual([
      'catalog>catalog',
      'catalog>collection',
      'catalog>item',
      'collection>item',
    ]);
  });

  it('lets catalogs and collections sit at root level, not items', () => {
    expect(portalKinds.filter(canBeAtRoot)).toStrictEqual(['catalog', 'collection']);
  });

  it('refuses a root-level item with a message naming its possible parents', () => {
    const id = newId();
    expect(() => checkPlacement({ id, kind: 'item', parent: null, subtreeHeight: 0 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_PARENT_KIND',
        message: `item ${id}: an item needs a parent collection or catalog`,
      }) as DomainError,
    );
  });

  it('places an item under a collection at the next depth', () => {
    expect(
      checkPlacement({
        id: newId(),
        kind: 'item',
        parent: liveParent('collection', { depth: 7 }),
        subtreeHeight: 0,
      }),
    ).toBe(8);
  });

  it('words a missing parent as parentNotFound does, which command handlers give for a hidden one', () => {
    const id = newId();
    const refusal = (): unknown => {
      try {
        checkPlacement({ id: newId(), kind: 'catalog', parent: { found: false, id }, subtreeHeight: 0 });
      } catch (error) {
        return error;
      }
      return null;
    };
    const missing = refusal();
    expect(missing).toBeInstanceOf(DomainError);
    expect(missing).toStrictEqual(parentNotFound(id));
    expect(parentNotFound(id)).toMatchObject({
      code: 'PARENT_NOT_FOUND',
      message: `parent ${id} does not exist`,
    });
  });
});
