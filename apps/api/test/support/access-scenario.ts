import { randomUUID } from 'node:crypto';
import type { NodeSpec } from './seeded-tree.js';
import type { ModelCaller } from './visibility-model.js';

/**
 * A small portal of two organizations where every way of being visible or hidden occurs once: public,
 * org and private objects, a private catalog with a public item in it (effectively private), objects
 * shared with a user and with an organization below hidden ancestors, a share that stops at a private
 * object below it (and one on a private object itself), a creator's own private objects, and objects
 * recorded before identity existed (no organization, public).
 */
export function accessScenario() {
  const orgA = randomUUID();
  const orgB = randomUUID();
  const orgC = randomUUID();
  const alice = randomUUID();
  const victor = randomUUID();
  const eve = randomUUID();
  const olga = randomUUID();
  const inA = { orgId: orgA, visibility: 'org', createdBy: alice } as const;
  const specs: NodeSpec[] = [
    { key: 'pub', kind: 'catalog', ...inA, visibility: 'public' },
    { key: 'pub-item-1', kind: 'item', parent: 'pub', ...inA, visibility: 'public', assetBytes: 100 },
    {
      key: 'pub-item-2',
      kind: 'item',
      parent: 'pub',
      ...inA,
      visibility: 'public',
      status: 'failed',
      assetBytes: 7,
    },
    { key: 'org-coll', kind: 'collection', parent: 'pub', ...inA },
    { key: 'org-item', kind: 'item', parent: 'org-coll', ...inA, visibility: 'public', assetBytes: 1000 },
    {
      key: 'victor-draft',
      kind: 'item',
      parent: 'org-coll',
      ...inA,
      visibility: 'private',
      createdBy: victor,
      assetBytes: 5,
    },
    { key: 'secret', kind: 'catalog', parent: 'pub', ...inA, visibility: 'private' },
    {
      key: 'shared-item',
      kind: 'item',
      parent: 'secret',
      ...inA,
      visibility: 'public',
      shares: [{ principal: { type: 'user', id: eve }, permission: 'viewer' }],
      linksTo: ['pub-item-1', 'secret', 'hidden-item'],
      assetBytes: 20,
    },
    { key: 'hidden-item', kind: 'item', parent: 'secret', ...inA, assetBytes: 300 },
    { key: 'victor-own', kind: 'item', parent: 'pub', ...inA, visibility: 'private', createdBy: victor },
    {
      key: 'team-b-share',
      kind: 'catalog',
      parent: 'pub',
      ...inA,
      visibility: 'private',
      shares: [{ principal: { type: 'organization', id: orgB }, permission: 'viewer' }],
    },
    { key: 'b-readable', kind: 'item', parent: 'team-b-share', ...inA, assetBytes: 3 },
    // Private on its own below the share to B: the share does not reach into it, nor below it.
    { key: 'not-for-b', kind: 'collection', parent: 'team-b-share', ...inA, visibility: 'private' },
    { key: 'not-for-b-item', kind: 'item', parent: 'not-for-b', ...inA, assetBytes: 11 },
    // Private on its own and shared itself: the share reaches it and what is below.
    {
      key: 'eve-private-share',
      kind: 'collection',
      parent: 'org-coll',
      ...inA,
      visibility: 'private',
      shares: [{ principal: { type: 'user', id: eve }, permission: 'viewer' }],
    },
    { key: 'eve-private-item', kind: 'item', parent: 'eve-private-share', ...inA, assetBytes: 13 },
    { key: 'org-root', kind: 'catalog', ...inA },
    { key: 'org-root-item', kind: 'item', parent: 'org-root', ...inA, visibility: 'public' },
    { key: 'b-root', kind: 'catalog', orgId: orgB, visibility: 'private', createdBy: eve },
    { key: 'b-item', kind: 'item', parent: 'b-root', orgId: orgB, visibility: 'public', createdBy: eve },
    { key: 'legacy', kind: 'catalog', orgId: null, visibility: 'public', createdBy: null },
    {
      key: 'legacy-item',
      kind: 'item',
      parent: 'legacy',
      orgId: null,
      visibility: 'public',
      createdBy: null,
      linksTo: ['secret', 'pub-item-2'],
      assetBytes: 9,
    },
  ];
  const callers: Record<string, ModelCaller> = {
    anonymous: { userId: null, orgId: null, role: null },
    'alice, admin of A': { userId: alice, orgId: orgA, role: 'admin' },
    'victor, viewer of A': { userId: victor, orgId: orgA, role: 'viewer' },
    'eve, editor of B': { userId: eve, orgId: orgB, role: 'editor' },
    'olga, owner of C': { userId: olga, orgId: orgC, role: 'owner' },
  };
  return { specs, callers: Object.entries(callers) };
}
