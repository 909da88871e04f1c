import { randomUUID } from 'node:crypto';
import type { EventStore, EventToAppend, ExpectedRevision, PortalObjectEvent } from '@portal/domain';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  metadata,
  moved,
  toAppend,
  updated,
} from './portal-events.js';

interface ModelNode {
  readonly id: string;
  readonly kind: 'catalog' | 'collection';
  parentId: string | null;
  title: string;
  description: string;
  revision: bigint;
  deleted: boolean;
}

export interface PlannedAppend {
  readonly streamId: string;
  readonly expectedRevision: ExpectedRevision;
  readonly event: EventToAppend;
}

/** Titles chosen to collide after slugify, so sibling slug uniqueness is exercised all the time. */
const titles = ['Alpha', 'alpha', 'ALPHA!', 'Beta', 'Gamma Ray', 'gamma-ray', 'Délta', 'Delta', 'Ω Omega'];

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

/**
 * Produces a stream of valid portal-object events — creates, title updates that collide, moves across
 * the tree, plain and recursive deletes — keeping a small model of the tree the way the deciders would.
 */
export class PortalScenario {
  private readonly nodes = new Map<string, ModelNode>();
  private readonly next: () => number;
  private readonly orgId = randomUUID();
  private clock = Date.parse('2025-01-01T00:00:00.000Z');

  constructor(seed: number) {
    this.next = random(seed);
  }

  /** Plans `count` operations and appends them one after another. */
  async appendTo(store: EventStore, count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      const planned = this.plan();
      await store.append(planned.streamId, [planned.event], { expectedRevision: planned.expectedRevision });
    }
  }

  plan(): PlannedAppend {
    const roll = this.next();
    if (roll < 0.35) return this.create();
    if (roll < 0.6) return this.update() ?? this.create();
    if (roll < 0.8) return this.move() ?? this.create();
    return this.delete() ?? this.create();
  }

  private pick<T>(items: readonly T[]): T | undefined {
    return items[Math.floor(this.next() * items.length)];
  }

  private live(): ModelNode[] {
    return [...this.nodes.values()].filter((node) => !node.deleted);
  }

  private depthOf(id: string | null): number {
    let depth = 0;
    for (let at = id; at !== null; at = this.nodes.get(at)?.parentId ?? null) depth += 1;
    return depth;
  }

  private isInSubtree(candidate: string, root: string): boolean {
    for (let at: string | null = candidate; at !== null; at = this.nodes.get(at)?.parentId ?? null) {
      if (at === root) return true;
    }
    return false;
  }

  private children(id: string): ModelNode[] {
    return this.live().filter((node) => node.parentId === id);
  }

  private emit(node: ModelNode, event: PortalObjectEvent, expectedRevision: ExpectedRevision): PlannedAppend {
    this.clock += 1000;
    const meta = metadata({ orgId: this.orgId, occurredAt: new Date(this.clock).toISOString() });
    return { streamId: `${node.kind}-${node.id}`, expectedRevision, event: toAppend(event, meta) };
  }

  private create(): PlannedAppend {
    const catalogs = this.live().filter((node) => node.kind === 'catalog' && this.depthOf(node.id) < 6);
    const parent = this.next() < 0.25 ? undefined : this.pick(catalogs);
    const title = this.pick(titles) ?? 'Alpha';
    const kind = this.next() < 0.6 ? 'catalog' : 'collection';
    const node: ModelNode = {
      id: randomUUID(),
      kind,
      parentId: parent?.id ?? null,
      title,
      description: '',
      revision: 0n,
      deleted: false,
    };
    this.nodes.set(node.id, node);
    const data = { id: node.id, title, parentId: node.parentId };
    const event =
      kind === 'catalog'
        ? catalogCreated(data)
        : collectionCreated({ ...data, keywords: ['k'], license: 'CC-BY-4.0' });
    return this.emit(node, event, 'no_stream');
  }

  private update(): PlannedAppend | null {
    const node = this.pick(this.live());
    if (!node) return null;
    const title = this.pick(titles.filter((candidate) => candidate !== node.title)) ?? 'Beta';
    const description = `changed ${node.revision + 1n}`;
    const event = updated({
      id: node.id,
      kind: node.kind,
      changes: { title, description },
      previous: { title: node.title, description: node.description },
    });
    node.title = title;
    node.description = description;
    return this.bump(node, event);
  }

  private move(): PlannedAppend | null {
    const node = this.pick(this.live());
    if (!node) return null;
    const targets = this.live().filter(
      (candidate) =>
        candidate.kind === 'catalog' &&
        candidate.id !== node.parentId &&
        !this.isInSubtree(candidate.id, node.id) &&
        this.depthOf(candidate.id) < 8,
    );
    const target = node.parentId !== null && this.next() < 0.2 ? null : this.pick(targets);
    if (target === undefined) return null;
    const event = moved({
      id: node.id,
      kind: node.kind,
      fromParentId: node.parentId,
      toParentId: target?.id ?? null,
    });
    node.parentId = target?.id ?? null;
    return this.bump(node, event);
  }

  private delete(): PlannedAppend | null {
    const node = this.pick(this.live());
    if (!node) return null;
    const recursive = this.children(node.id).length > 0;
    if (recursive) {
      for (const other of this.live()) if (this.isInSubtree(other.id, node.id)) other.deleted = true;
    }
    node.deleted = true;
    return this.bump(node, deleted({ id: node.id, kind: node.kind, recursive }));
  }

  private bump(node: ModelNode, event: PortalObjectEvent): PlannedAppend {
    const expected = node.revision;
    node.revision += 1n;
    return this.emit(node, event, expected);
  }
}
