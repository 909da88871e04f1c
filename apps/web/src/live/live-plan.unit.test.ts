import type { BrowserNode, ChangeEvent } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { belongsIn, MAX_LOOKUPS, planLiveUpdate } from './live-plan.js';

const change = (objectId: string, type: string): ChangeEvent => ({
  objectId,
  kind: 'catalog',
  type,
  revision: 1,
  position: '1.1',
  occurredAt: '2024-01-01T00:00:00Z',
  actorId: null,
});

describe('planLiveUpdate', () => {
  const node = { id: 'parent' };
  const shown = new Set(['a', 'b']);

  it('re-reads the node itself, and notices its deletion', () => {
    expect(planLiveUpdate([change('parent', 'PortalObjectUpdated')], node, shown)).toMatchObject({
      refreshNode: true,
      nodeDeleted: false,
    });
    expect(planLiveUpdate([change('parent', 'PortalObjectDeleted')], node, shown).nodeDeleted).toBe(true);
  });

  it('drops deleted rows without asking and looks up changed ones', () => {
    const plan = planLiveUpdate(
      [
        change('a', 'PortalObjectUpdated'),
        change('b', 'PortalObjectDeleted'),
        change('a', 'PortalObjectMoved'),
      ],
      node,
      shown,
    );
    expect(plan.remove).toEqual(['b']);
    expect(plan.lookUp).toEqual(['a']);
    expect(plan.refreshNode).toBe(true);
  });

  it('looks up unknown objects only when they may have arrived here', () => {
    const plan = planLiveUpdate(
      [
        change('new', 'CatalogCreated'),
        change('moved', 'PortalObjectMoved'),
        change('elsewhere', 'PortalObjectUpdated'),
      ],
      node,
      shown,
    );
    expect(plan.lookUp).toEqual(['new', 'moved']);
  });

  it('reloads instead of looking up a burst of unknown objects', () => {
    const burst = Array.from({ length: MAX_LOOKUPS + 1 }, (_, index) =>
      change(`n${index}`, 'CollectionCreated'),
    );
    expect(planLiveUpdate(burst, node, shown)).toMatchObject({ reload: true, lookUp: [] });
  });

  it('at the root level has no node to refresh', () => {
    expect(planLiveUpdate([change('new', 'CatalogCreated')], null, new Set()).refreshNode).toBe(false);
  });
});

describe('belongsIn', () => {
  const child = { parentId: 'p', kind: 'item', status: 'ready' } as BrowserNode;
  it('checks the parent and the filters of the list', () => {
    expect(belongsIn(child, 'p', null)).toBe(true);
    expect(belongsIn(child, 'q', null)).toBe(false);
    expect(belongsIn(child, 'p', { sort: 'kind', order: 'asc', kind: ['catalog'], status: [] })).toBe(false);
    expect(belongsIn(child, 'p', { sort: 'kind', order: 'asc', kind: ['item'], status: ['failed'] })).toBe(
      false,
    );
    expect(belongsIn(child, 'p', { sort: 'kind', order: 'asc', kind: ['item'], status: ['ready'] })).toBe(
      true,
    );
  });
});
