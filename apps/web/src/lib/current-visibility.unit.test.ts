import type { HistoryEntry } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { currentVisibility } from './current-visibility.js';

function entry(revision: number, type: string, change: Record<string, unknown>): HistoryEntry {
  return {
    type,
    revision,
    position: String(revision),
    occurredAt: '2026-01-01T00:00:00.000Z',
    actor: { id: null, name: null },
    change,
  };
}

describe('currentVisibility', () => {
  it('is org when the create named none', () => {
    expect(currentVisibility([entry(0, 'CatalogCreated', { title: 'A' })])).toBe('org');
  });

  it('is the visibility the object was created with', () => {
    expect(currentVisibility([entry(0, 'CatalogCreated', { visibility: 'public' })])).toBe('public');
  });

  it('follows the last visibility change, ignoring other events', () => {
    expect(
      currentVisibility([
        entry(0, 'CatalogCreated', { visibility: 'public' }),
        entry(1, 'VisibilityChanged', { from: 'public', to: 'private' }),
        entry(2, 'PortalObjectUpdated', { title: { before: 'A', after: 'B' } }),
        entry(3, 'VisibilityChanged', { from: 'private', to: 'org' }),
        entry(4, 'ObjectShared', { principal: null, permission: null }),
      ]),
    ).toBe('org');
  });

  it('ignores a change whose values the caller may not see', () => {
    expect(
      currentVisibility([
        entry(0, 'CatalogCreated', { visibility: 'private' }),
        entry(1, 'VisibilityChanged', { from: null, to: null }),
      ]),
    ).toBe('private');
  });
});
