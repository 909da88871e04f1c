/**
 * Given events / when command / then events (or error) for the portal-object decider, and fixtures
 * that make a test's intent visible. Test-only: imported by `*.unit.test.ts`, never by the library.
 */
import { expect } from 'vitest';
import { DomainError, type DomainErrorCode } from '../errors.js';
import type { NewObjectAccess, ParentLookup, PortalObjectCommand } from './commands.js';
import { decide } from './decider.js';
import type { CatalogCreated, CollectionCreated, CreatedAccess, PortalObjectEvent } from './events.js';
import type { ItemCommand } from './item-commands.js';
import { foldState } from './state.js';
import type { Link, PortalKind } from './types.js';

export function given(...history: PortalObjectEvent[]) {
  const state = foldState(history);
  return {
    when(command: PortalObjectCommand | ItemCommand) {
      return {
        then(expected: readonly PortalObjectEvent[]): void {
          expect(decide(command, state)).toStrictEqual(expected);
        },
        thenFails(code: DomainErrorCode, message?: RegExp): void {
          const error = thrownBy(() => decide(command, state));
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe(code);
          if (message) expect((error as DomainError).message).toMatch(message);
        },
      };
    },
  };
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the command to fail, but it succeeded');
}

export const newId = (): string => crypto.randomUUID();

/** The organization and user behind the fixtures' objects. */
export const testOrgId = '6f1c2a4e-0d1b-4c57-9a0e-3b2f1d4c5e6a';
export const testUserId = '0b8e7d6c-5a4f-4e3d-8c2b-1a0f9e8d7c6b';

/** What a create command carries when the test is not about access. */
export const creator: NewObjectAccess = { orgId: testOrgId, createdBy: testUserId };

/** What a create event records for `creator` (the default visibility). */
export const createdByCreator: CreatedAccess = { orgId: testOrgId, visibility: 'org', createdBy: testUserId };

export function aLink(href: string, linkJson: Record<string, unknown> = {}): Link {
  return {
    title: 'Documentation',
    href,
    rel: 'related',
    type: 'text/html',
    targetType: 'portal-item',
    linkJson,
  };
}

/** A live parent at `depth`, with made-up ancestors unless given. */
export function liveParent(
  kind: PortalKind,
  options: { id?: string; depth?: number; ancestorIds?: readonly string[]; orgId?: string | null } = {},
): Extract<ParentLookup, { found: true }> {
  const depth = options.depth ?? 1;
  const ancestorIds = options.ancestorIds ?? Array.from({ length: depth - 1 }, newId);
  const orgId = options.orgId === undefined ? testOrgId : options.orgId;
  return { found: true, id: options.id ?? newId(), kind, depth, ancestorIds, deleted: false, orgId };
}

export function catalogCreated(data: Partial<CatalogCreated['data']> & { id: string }): CatalogCreated {
  return {
    type: 'CatalogCreated',
    data: {
      title: 'Land cover',
      description: 'Land cover maps',
      parentId: null,
      links: [],
      ...createdByCreator,
      ...data,
    },
  };
}

export function collectionCreated(
  data: Partial<CollectionCreated['data']> & { id: string },
): CollectionCreated {
  return {
    type: 'CollectionCreated',
    data: {
      title: 'Sentinel-2 scenes',
      description: 'Level-2A scenes',
      parentId: null,
      links: [],
      license: 'other',
      keywords: [],
      extent: null,
      ...createdByCreator,
      ...data,
    },
  };
}
