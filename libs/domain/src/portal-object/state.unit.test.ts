import { describe, expect, it } from 'vitest';
import { aLink, catalogCreated, collectionCreated, newId } from './decider-test-kit.js';
import type { PortalObjectEvent } from './events.js';
import { evolve, foldState, initialState } from './state.js';

describe('portal-object state', () => {
  it('starts absent', () => {
    expect(initialState).toStrictEqual({ status: 'absent' });
    expect(foldState([])).toStrictEqual({ status: 'absent' });
  });

  it('folds a catalog through update, move and delete', () => {
    const id = newId();
    const parentId = newId();
    const links = [aLink('https://example.org/x')];
    const history: PortalObjectEvent[] = [
      catalogCreated({ id, title: 'A', description: 'd', parentId: null }),
      {
        type: 'PortalObjectUpdated',
        data: { id, kind: 'catalog', changes: { title: 'B', links }, previous: { title: 'A', links: [] } },
      },
      { type: 'PortalObjectMoved', data: { id, kind: 'catalog', fromParentId: null, toParentId: parentId } },
    ];
    expect(foldState(history)).toStrictEqual({
      status: 'live',
      kind: 'catalog',
      id,
      title: 'B',
      description: 'd',
      parentId,
      links,
    });
    const deleted = evolve(foldState(history), {
      type: 'PortalObjectDeleted',
      data: { id, kind: 'catalog', recursive: false },
    });
    expect(deleted).toStrictEqual({ status: 'deleted', id, kind: 'catalog', parentId });
  });

  it('keeps collection fields and applies a reset extent', () => {
    const id = newId();
    const extent = { spatial: { bbox: [[0, 0, 1, 1] as const] }, temporal: { interval: [] } };
    const state = foldState([
      collectionCreated({ id, license: 'MIT', keywords: ['k'], extent }),
      {
        type: 'PortalObjectUpdated',
        data: { id, kind: 'collection', changes: { extent: null }, previous: { extent } },
      },
    ]);
    expect(state).toMatchObject({
      status: 'live',
      kind: 'collection',
      license: 'MIT',
      keywords: ['k'],
      extent: null,
    });
  });

  it('leaves the state unchanged for an event that cannot apply to it', () => {
    const id = newId();
    const orphanUpdate: PortalObjectEvent = {
      type: 'PortalObjectUpdated',
      data: { id, kind: 'catalog', changes: { title: 'x' }, previous: { title: 'y' } },
    };
    expect(evolve(initialState, orphanUpdate)).toBe(initialState);
    const live = foldState([catalogCreated({ id })]);
    expect(evolve(live, collectionCreated({ id }))).toBe(live);
  });
});
