import { DomainError } from '../errors.js';
import type { ParentLookup } from './commands.js';
import { MAX_DEPTH, type PortalKind } from './types.js';

interface Containment {
  /** Kinds that may hold this kind as a direct child. */
  readonly parents: readonly PortalKind[];
  /** Whether this kind may sit at root level (no parent). */
  readonly atRoot: boolean;
}

/**
 * The one table every tree rule reads. Items are listed already although no item command exists yet,
 * so adding item commands does not touch the rules; no kind lists `item` as a parent: items have no children.
 */
export const containment: Readonly<Record<PortalKind, Containment>> = {
  catalog: { parents: ['catalog'], atRoot: true },
  collection: { parents: ['catalog'], atRoot: true },
  item: { parents: ['collection', 'catalog'], atRoot: false },
};

export function canContain(parentKind: PortalKind, childKind: PortalKind): boolean {
  return containment[childKind].parents.includes(parentKind);
}

export function canBeAtRoot(kind: PortalKind): boolean {
  return containment[kind].atRoot;
}

/** "a catalog", "an item": error messages are read by people. */
export function withArticle(kind: PortalKind): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

/**
 * A parent that is not there. Also what a command handler answers for a parent the caller may not read,
 * deleted or not, so that the answer does not tell it exists: one wording for both.
 */
export function parentNotFound(id: string): DomainError {
  return new DomainError('PARENT_NOT_FOUND', `parent ${id} does not exist`);
}

export interface Placement {
  readonly id: string;
  readonly kind: PortalKind;
  /** `null` for root level. */
  readonly parent: ParentLookup | null;
  /** Levels below the object: 0 for a leaf or a new object. */
  readonly subtreeHeight: number;
}

/**
 * Checks that the object (and its subtree) may sit under `parent`; returns the object's depth there.
 * Order matters for the answer a client gets: a missing parent is reported before a cycle,
 * a cycle before a wrong kind (moving under itself is a cycle, not a kind problem), the kind before depth.
 */
export function checkPlacement({ id, kind, parent, subtreeHeight }: Placement): number {
  if (parent === null) {
    if (!canBeAtRoot(kind)) {
      const parents = containment[kind].parents.join(' or ');
      throw new DomainError(
        'INVALID_PARENT_KIND',
        `${kind} ${id}: ${withArticle(kind)} needs a parent ${parents}`,
      );
    }
    checkDepth({ id, kind, parent, subtreeHeight }, 1);
    return 1;
  }
  if (!parent.found) throw parentNotFound(parent.id);
  // Told only to a caller who could read the parent: the command handler answers anyone else as above.
  if (parent.deleted) {
    throw new DomainError('PARENT_NOT_FOUND', `parent ${parent.id} was deleted (itself or an ancestor)`);
  }
  if (parent.id === id) {
    throw new DomainError('CYCLE', `${kind} ${id} cannot be placed under itself`);
  }
  if (parent.ancestorIds.includes(id)) {
    throw new DomainError('CYCLE', `${kind} ${id} cannot be placed under its own descendant ${parent.id}`);
  }
  if (!canContain(parent.kind, kind)) {
    throw new DomainError(
      'INVALID_PARENT_KIND',
      `parent ${parent.id}: ${withArticle(parent.kind)} cannot contain ${withArticle(kind)}`,
    );
  }
  const depth = parent.depth + 1;
  checkDepth({ id, kind, parent, subtreeHeight }, depth);
  return depth;
}

function checkDepth({ id, kind, parent, subtreeHeight }: Placement, depth: number): void {
  const deepest = depth + subtreeHeight;
  if (deepest <= MAX_DEPTH) return;
  const where = parent === null ? 'at root level' : `under parent ${parent.id}`;
  const reach =
    subtreeHeight === 0
      ? `would sit at depth ${depth}`
      : `would sit at depth ${depth} and its deepest descendant at depth ${deepest}`;
  throw new DomainError(
    'DEPTH_EXCEEDED',
    `${kind} ${id} ${where} ${reach}; the maximum depth is ${MAX_DEPTH}`,
  );
}
