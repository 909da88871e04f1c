import { randomUUID } from 'node:crypto';
import {
  slugify,
  visibilities,
  type BBox,
  type CreatedAccess,
  type PortalObjectEvent,
  type PortalObjectMoved,
  type RecordedEvent,
  type Visibility,
} from '@portal/domain';
import { derivesFrom, siblingGroupOf } from '@portal/read-model-portal-objects';
import type { Pool } from '@portal/platform';
import { itemRegistered, itemUploadStarted } from './item-events.js';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  metadata,
  moved,
  RecordedEventLog,
  shared,
  streamOf,
} from './portal-events.js';

/** Titles that collide after slugify (`alpha`, `alpha-2`…), so moves meet slugs held at their destination. */
const titles = ['Alpha', 'alpha', 'ALPHA!', 'Alpha 2', 'Beta', 'beta', 'Gamma', 'Delta'];

/** Deterministic PRNG (mulberry32): a failing seed can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface TreeNode {
  readonly id: string;
  readonly kind: 'catalog' | 'collection' | 'item';
  readonly parentId: string | null;
  readonly orgId: string | null;
  deleted: boolean;
}

/** A `portal_objects` row as the move chooser needs it. */
export interface MoveCandidateRow {
  id: string;
  kind: 'catalog' | 'collection' | 'item';
  parent_id: string | null;
  org_id: string | null;
  title: string;
  slug: string;
  version: string;
  deleted: boolean;
  /** Any row, live or a tombstone, below it. */
  below: boolean;
}

export type LeafMove = readonly [PortalObjectMoved, RecordedEvent];

/** What the chooser needs of the rows: every object, whether anything lies below it. */
export async function moveCandidateRows(pool: Pool, schema: string): Promise<MoveCandidateRow[]> {
  const result = await pool.query<MoveCandidateRow>(
    `SELECT o.id, o.kind, o.parent_id, o.org_id, o.title, o.slug, o.version, o.deleted_at IS NOT NULL AS deleted,
            EXISTS (SELECT 1 FROM "${schema}".portal_objects d WHERE d.ancestor_ids @> ARRAY[o.id]) AS below
       FROM "${schema}".portal_objects o ORDER BY o.created_at, o.id`,
  );
  return result.rows;
}

/**
 * A random tree of catalogs, collections and items (ready ones with extents, uploading ones without),
 * in three organizations (one of them none, as before identity), with random visibilities, shares,
 * tombstones and buried subtrees; then a random set of leaf moves over it that meets what the run
 * cutter guarantees for `applyLeafMovesInRun` (run-moves.ts): leaves only, each object once, no
 * destination that is moved, and no two moves taking or freeing slugs of one family in one sibling group.
 */
export class LeafMoveTree {
  private readonly next: () => number;
  private readonly log = new RecordedEventLog();
  private readonly nodes: TreeNode[] = [];
  private readonly orgs = [null, randomUUID(), randomUUID()];
  private readonly users = [randomUUID(), randomUUID(), randomUUID()];
  private clock = Date.parse('2025-03-01T00:00:00.000Z');

  constructor(seed: number) {
    this.next = random(seed);
  }

  private pick<T>(values: readonly T[]): T {
    const value = values[Math.floor(this.next() * values.length)];
    if (value === undefined) throw new Error('picked from nothing');
    return value;
  }

  private chance(p: number): boolean {
    return this.next() < p;
  }

  private record(event: PortalObjectEvent): RecordedEvent {
    this.clock += 1000;
    return this.log.record(
      event,
      streamOf(event),
      metadata({ occurredAt: new Date(this.clock).toISOString() }),
    );
  }

  private access(orgId: string | null): CreatedAccess {
    if (orgId === null) return { orgId: null, visibility: 'public', createdBy: null };
    const visibility: Visibility = this.pick(visibilities);
    return { orgId, visibility, createdBy: this.pick(this.users) };
  }

  private bbox(): BBox {
    const west = Math.round(this.next() * 340 - 170);
    const south = Math.round(this.next() * 160 - 80);
    const width = Math.round(this.next() * 30) + 1;
    // Now and then one crossing the antimeridian (west > east): the extent counts it as every longitude.
    const east = this.chance(0.1) ? west - width : Math.min(180, west + width);
    return [west, south, east, Math.min(90, south + Math.round(this.next() * 9) + 1)];
  }

  private time(): string {
    return new Date(Date.parse('2020-01-01T00:00:00.000Z') + Math.floor(this.next() * 1e11)).toISOString();
  }

  private create(parent: TreeNode | null): PortalObjectEvent {
    const title = this.pick(titles);
    const parentId = parent?.id ?? null;
    const orgId = parent ? parent.orgId : this.pick(this.orgs);
    const access = this.access(orgId);
    let event: PortalObjectEvent;
    if (parent?.kind === 'collection') {
      const roll = this.next();
      if (roll < 0.6) {
        const [start, end] = [this.time(), this.time()].sort();
        const metadata = this.chance(0.5)
          ? { bbox: this.bbox(), datetime: this.time() }
          : { bbox: this.bbox(), startDatetime: start ?? null, endDatetime: end ?? null };
        event = itemRegistered({ title, parentId: parent.id, metadata, ...access });
      } else if (roll < 0.8) {
        event = itemRegistered({ title, parentId: parent.id, ...access });
      } else {
        event = itemUploadStarted({ title, parentId: parent.id, metadata: { bbox: this.bbox() }, ...access });
      }
    } else if (this.chance(0.5)) {
      event = catalogCreated({ title, parentId, ...access });
    } else {
      event = collectionCreated({ title, parentId, ...access });
    }
    const kind =
      event.type === 'CatalogCreated'
        ? 'catalog'
        : event.type === 'CollectionCreated'
          ? 'collection'
          : 'item';
    this.nodes.push({ id: event.data.id, kind, parentId, orgId, deleted: false });
    return event;
  }

  /** The events that build the tree, in store order. */
  setupEvents(size: number): RecordedEvent[] {
    const events: RecordedEvent[] = [];
    for (let i = 0; i < size; i += 1) {
      const containers = this.nodes.filter((node) => node.kind !== 'item' && !node.deleted);
      const parent = containers.length === 0 || this.chance(0.12) ? null : this.pick(containers);
      const node = this.create(parent);
      events.push(this.record(node));
      if (this.chance(0.15)) events.push(...this.share());
      if (this.chance(0.1)) events.push(...this.remove());
    }
    return events;
  }

  /** A share of an object of an organization, with a user or an organization, viewer or editor. */
  private share(): RecordedEvent[] {
    const shareable = this.nodes.filter((candidate) => candidate.orgId !== null);
    if (shareable.length === 0) return [];
    const node = this.pick(shareable);
    const principal = this.chance(0.5)
      ? { type: 'user' as const, id: this.pick(this.users) }
      : { type: 'organization' as const, id: this.pick(this.orgs.filter((org) => org !== null)) };
    const permission = this.chance(0.5) ? 'viewer' : 'editor';
    return [this.record(shared({ id: node.id, kind: node.kind, principal, permission, previous: null }))];
  }

  /** A plain delete of an object without live children, else a recursive one (its subtree buried). */
  private remove(): RecordedEvent[] {
    const live = this.nodes.filter((node) => !node.deleted);
    if (live.length === 0) return [];
    const node = this.pick(live);
    const below = this.subtreeOf(node.id);
    const recursive = below.some((child) => !child.deleted);
    for (const gone of [node, ...below]) gone.deleted = true;
    return [this.record(deleted({ id: node.id, kind: node.kind, recursive }))];
  }

  private subtreeOf(id: string): TreeNode[] {
    const children = this.nodes.filter((node) => node.parentId === id);
    return children.flatMap((child) => [child, ...this.subtreeOf(child.id)]);
  }

  /**
   * Up to `count` leaf moves over the rows as they stand, each recorded after the tree's events. Some go
   * within their parent, some to root level; some carry a revision the row already has (replayed).
   */
  chooseMoves(rows: readonly MoveCandidateRow[], count: number): LeafMove[] {
    const moves: LeafMove[] = [];
    const moving = new Set<string>();
    /** Parents the moves leave or join: none of them may move. */
    const parents = new Set<string>();
    /** Per sibling group, the slugs and title bases the moves take or free there. */
    const names = new Map<string, string[]>();
    const leaves = rows.filter((row) => !row.below);
    for (let tries = 0; moves.length < count && tries < count * 4; tries += 1) {
      const row = this.pick(leaves);
      if (moving.has(row.id) || parents.has(row.id)) continue;
      const destinations = rows.filter(
        (candidate) =>
          candidate.kind !== 'item' &&
          candidate.org_id === row.org_id &&
          candidate.id !== row.id &&
          !moving.has(candidate.id),
      );
      const roll = this.next();
      const toParentId =
        roll < 0.15 || destinations.length === 0
          ? null
          : roll < 0.3 && row.parent_id !== null
            ? row.parent_id
            : this.pick(destinations).id;
      const taken: (readonly [string, string])[] = [
        [siblingGroupOf(row.parent_id, row.org_id), row.slug],
        [siblingGroupOf(toParentId, row.org_id), row.slug],
        [siblingGroupOf(toParentId, row.org_id), slugify(row.title)],
      ];
      const clashes = taken.some(([group, name]) =>
        (names.get(group) ?? []).some((other) => derivesFrom(name, other) || derivesFrom(other, name)),
      );
      if (clashes) continue;
      for (const [group, name] of taken) names.set(group, [...(names.get(group) ?? []), name]);
      moving.add(row.id);
      if (row.parent_id !== null) parents.add(row.parent_id);
      if (toParentId !== null) parents.add(toParentId);
      const event = moved({ id: row.id, kind: row.kind, fromParentId: row.parent_id, toParentId });
      const recorded = this.record(event);
      // Now and then one the read model already applied: its revision is the row's version.
      const replayed = this.chance(0.08) ? { ...recorded, revision: BigInt(row.version) } : recorded;
      moves.push([event, replayed]);
    }
    return moves;
  }
}
