import { randomUUID } from 'node:crypto';
import {
  samePrincipal,
  visibilities,
  type BBox,
  type CreatedAccess,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type HrefAsset,
  type ItemAsset,
  type ItemMetadata,
  type ItemUploadStarted,
  type PortalObjectEvent,
  type Share,
  type SharePrincipal,
  type UploadStatus,
  type Visibility,
} from '@portal/domain';
import {
  assetAttached,
  assetOf,
  completionRequested,
  itemRegistered,
  itemUploadStarted,
  uploadAborted,
  uploadCompleted,
  uploadExpired,
  uploadFailed,
} from './item-events.js';
import { IdentityScenario } from './identity-scenario.js';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  metadata,
  moved,
  shared,
  toAppend,
  unshared,
  updated,
  visibilityChanged,
} from './portal-events.js';

interface ModelNode {
  readonly id: string;
  readonly kind: 'catalog' | 'collection' | 'item';
  parentId: string | null;
  title: string;
  /** Only an item may have none. */
  description: string | null;
  revision: bigint;
  /** Deleted itself, or buried by an ancestor's recursive delete. */
  deleted: boolean;
  /** An item's upload, as the item decider sees it; an item registered by href has none. */
  upload?: ModelUpload;
  /** An item's metadata and assets by href, for the `previous` side of its updates. */
  item?: { metadata: ItemMetadata; assets: readonly HrefAsset[] };
  /** The parent's, or the creator's at root level; never changes. */
  readonly orgId: string;
  visibility: Visibility;
  shares: Share[];
}

interface ModelUpload {
  readonly started: ItemUploadStarted;
  status: UploadStatus;
  /** Attached by the worker, whose `UploadCompleted` comes next. */
  attached: ItemAsset | null;
  /** The item itself was deleted (not buried by an ancestor): its upload takes no step but the cleanup. */
  selfDeleted: boolean;
  /** It was deleted with its upload open: an `UploadAborted` cleans that up. */
  openAfterDelete: boolean;
}

export interface ScenarioOptions {
  /** Items and their uploads too; off, a seed plans exactly the catalog-and-collection events it always did. */
  readonly items?: boolean;
  /**
   * Two organizations, random creators and visibilities, visibility changes, shares and unshares. Off,
   * every object is in one organization, `org`-visible, created by one user, and never shared.
   */
  readonly access?: boolean;
  /** Users, organizations, members, invitations and API keys between the portal's events. */
  readonly identity?: boolean;
}

export interface PlannedAppend {
  readonly streamId: string;
  readonly expectedRevision: ExpectedRevision;
  readonly event: EventToAppend;
}

/** Titles chosen to collide after slugify, so sibling slug uniqueness is exercised all the time. */
const titles = ['Alpha', 'alpha', 'ALPHA!', 'Beta', 'Gamma Ray', 'gamma-ray', 'Délta', 'Delta', 'Ω Omega'];

/** STAC ids a client gives items: repeated, so two items of one name meet in a collection too. */
const stacIds = ['S2A_47XNF_20230423_0_L2A', 'scene 1#a?b', 'Ω-100%', 'LC08_L2SP_042034'];

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
  private readonly otherOrgId = randomUUID();
  /** Creators and share recipients; the last one is in no organization of the scenario. */
  private readonly users = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  private clock = Date.parse('2025-01-01T00:00:00.000Z');
  private readonly identity: IdentityScenario;

  constructor(
    seed: number,
    private readonly options: ScenarioOptions = {},
  ) {
    this.next = random(seed);
    this.identity = new IdentityScenario(this.next, (orgId) => this.nextMetadata(orgId));
  }

  /** Plans `count` operations and appends them one after another. */
  async appendTo(store: EventStore, count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      const planned = this.plan();
      await store.append(planned.streamId, [planned.event], { expectedRevision: planned.expectedRevision });
    }
  }

  plan(): PlannedAppend {
    if (this.options.identity === true && this.next() < 0.15) return this.identity.plan();
    if (this.options.access === true && this.next() < 0.25) {
      const planned = this.changeAccess();
      if (planned) return planned;
    }
    if (this.options.items === true && this.next() < 0.35) {
      const roll = this.next();
      const planned =
        roll < 0.3
          ? this.createItem()
          : roll < 0.5
            ? (this.updateItem() ?? this.createItem())
            : (this.advanceUpload() ?? this.createItem());
      if (planned) return planned;
    }
    return this.planTreeChange();
  }

  private planTreeChange(): PlannedAppend {
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

  private nextMetadata(orgId: string | null): EventMetadata {
    this.clock += 1000;
    return metadata({ orgId, occurredAt: new Date(this.clock).toISOString() });
  }

  private emit(node: ModelNode, event: PortalObjectEvent, expectedRevision: ExpectedRevision): PlannedAppend {
    const meta = this.nextMetadata(node.orgId);
    return { streamId: `${node.kind}-${node.id}`, expectedRevision, event: toAppend(event, meta) };
  }

  /** A new object's access: its parent's organization (a root's is either one), a visibility, a creator. */
  private newAccess(parent: ModelNode | undefined): CreatedAccess {
    if (this.options.access !== true) {
      return { orgId: parent?.orgId ?? this.orgId, visibility: 'org', createdBy: this.users[0] ?? null };
    }
    const orgId = parent?.orgId ?? (this.next() < 0.5 ? this.orgId : this.otherOrgId);
    return {
      orgId,
      visibility: this.pick(visibilities) ?? 'org',
      createdBy: this.pick(this.users.slice(0, 3)) ?? null,
    };
  }

  private nodeWith(
    access: CreatedAccess,
    fields: Omit<ModelNode, 'orgId' | 'visibility' | 'shares' | 'revision' | 'deleted'>,
  ): ModelNode {
    const orgId = access.orgId ?? this.orgId;
    const node: ModelNode = {
      ...fields,
      orgId,
      visibility: access.visibility,
      shares: [],
      revision: 0n,
      deleted: false,
    };
    this.nodes.set(node.id, node);
    return node;
  }

  private create(): PlannedAppend {
    const catalogs = this.live().filter((node) => node.kind === 'catalog' && this.depthOf(node.id) < 6);
    const parent = this.next() < 0.25 ? undefined : this.pick(catalogs);
    const title = this.pick(titles) ?? 'Alpha';
    const kind = this.next() < 0.6 ? 'catalog' : 'collection';
    const access = this.newAccess(parent);
    const node = this.nodeWith(access, {
      id: randomUUID(),
      kind,
      parentId: parent?.id ?? null,
      title,
      description: '',
    });
    const data = { id: node.id, title, parentId: node.parentId, ...access };
    // Half the collections named by a STAC client (unique in the portal), some needing encoding in a path:
    // their items' stored JSON names them so.
    const name = this.next() < 0.5 ? {} : { stacId: `coll ${this.nodes.size}#${this.pick(stacIds) ?? ''}` };
    const event =
      kind === 'catalog'
        ? catalogCreated(data)
        : collectionCreated({ ...data, keywords: ['k'], license: 'CC-BY-4.0', ...name });
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
    if (node.kind === 'item') return this.moveItem(node);
    // Objects never change organization: the command side refuses a move into another one.
    const targets = this.live().filter(
      (candidate) =>
        candidate.kind === 'catalog' &&
        candidate.orgId === node.orgId &&
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
    if (node.upload) {
      node.upload.selfDeleted = true;
      node.upload.openAfterDelete = ['uploading', 'processing', 'failed'].includes(node.upload.status);
    }
    return this.bump(node, deleted({ id: node.id, kind: node.kind, recursive }));
  }

  private containers(): ModelNode[] {
    return this.live().filter((node) => node.kind !== 'item');
  }

  private moveItem(node: ModelNode): PlannedAppend | null {
    const target = this.pick(
      this.containers().filter(
        (candidate) => candidate.id !== node.parentId && candidate.orgId === node.orgId,
      ),
    );
    if (!target) return null;
    const event = moved({ id: node.id, kind: 'item', fromParentId: node.parentId, toParentId: target.id });
    node.parentId = target.id;
    return this.bump(node, event);
  }

  /** An item with an upload, or (two in five) one registered by href, ready at once. */
  private createItem(): PlannedAppend | null {
    const parent = this.pick(this.containers());
    if (!parent) return null;
    const title = this.pick(titles) ?? 'Alpha';
    const metadata = this.itemMetadata();
    const access = this.newAccess(parent);
    // Half named by a STAC client, some with characters its path segment must encode.
    const stacId = this.next() < 0.5 ? undefined : this.pick(stacIds);
    const name = stacId === undefined ? {} : { stacId };
    if (this.next() < 0.4) {
      const assets = this.hrefAssets();
      const registered = itemRegistered({ title, parentId: parent.id, metadata, assets, ...access, ...name });
      const node = this.nodeWith(access, {
        id: registered.data.id,
        kind: 'item',
        parentId: parent.id,
        title,
        description: null,
        item: { metadata: registered.data.metadata, assets },
      });
      return this.emit(node, registered, 'no_stream');
    }
    const started = itemUploadStarted({ title, parentId: parent.id, metadata, ...access, ...name });
    const node = this.nodeWith(access, {
      id: started.data.id,
      kind: 'item',
      parentId: parent.id,
      title,
      description: null,
      upload: { started, status: 'uploading', attached: null, selfDeleted: false, openAfterDelete: false },
      item: { metadata: started.data.metadata, assets: [] },
    });
    return this.emit(node, started, 'no_stream');
  }

  /**
   * An item's metadata replaced (a STAC PUT or a portal PATCH), with its assets by href or its
   * description now and then, and rarely a new title (which takes a slug and goes alone).
   */
  private updateItem(): PlannedAppend | null {
    const node = this.pick(this.live().filter((candidate) => candidate.item !== undefined));
    const item = node?.item;
    if (!node || !item) return null;
    const metadata = { ...item.metadata, ...this.itemMetadata() };
    const assets = this.next() < 0.3 ? this.hrefAssets() : undefined;
    const description = this.next() < 0.3 ? `described ${node.revision + 1n}` : undefined;
    const title = this.next() < 0.1 ? this.pick(titles.filter((other) => other !== node.title)) : undefined;
    const event = updated({
      id: node.id,
      kind: 'item',
      changes: {
        metadata,
        ...(assets && { assets }),
        ...(description !== undefined && { description }),
        ...(title !== undefined && { title }),
      },
      previous: {
        metadata: item.metadata,
        ...(assets && { assets: item.assets }),
        ...(description !== undefined && { description: node.description }),
        ...(title !== undefined && { title: node.title }),
      },
    });
    node.item = { metadata, assets: assets ?? item.assets };
    if (description !== undefined) node.description = description;
    if (title !== undefined) node.title = title;
    return this.bump(node, event);
  }

  /** None to two assets by href. */
  private hrefAssets(): HrefAsset[] {
    const count = Math.floor(this.next() * 3);
    return Array.from({ length: count }, (_, index) => ({
      id: randomUUID(),
      key: `asset-${index}`,
      asset: { href: `https://example.org/${randomUUID()}.tif`, roles: ['data'], 'eo:bands': [index] },
    }));
  }

  /** A visibility change, a share (new or replacing one) or an unshare on a live object. */
  private changeAccess(): PlannedAppend | null {
    const node = this.pick(this.live());
    if (!node) return null;
    const roll = this.next();
    if (roll < 0.35) {
      const to = this.pick(visibilities.filter((candidate) => candidate !== node.visibility)) ?? 'org';
      const event = visibilityChanged({ id: node.id, kind: node.kind, from: node.visibility, to });
      node.visibility = to;
      return this.bump(node, event);
    }
    const existing = this.pick(node.shares);
    if (roll < 0.55 && existing) {
      node.shares = node.shares.filter((share) => share !== existing);
      return this.bump(node, unshared({ id: node.id, kind: node.kind, ...existing }));
    }
    const principal: SharePrincipal =
      this.next() < 0.6
        ? { type: 'user', id: this.pick(this.users) ?? randomUUID() }
        : { type: 'organization', id: this.next() < 0.7 ? this.otherOrgId : this.orgId };
    const share: Share = { principal, permission: this.next() < 0.5 ? 'viewer' : 'editor' };
    const previous = node.shares.find((candidate) => samePrincipal(candidate.principal, principal)) ?? null;
    node.shares = previous
      ? node.shares.map((candidate) => (candidate === previous ? share : candidate))
      : [...node.shares, share];
    return this.bump(node, shared({ id: node.id, kind: node.kind, ...share, previous }));
  }

  /** A bbox, a geometry, both or neither; some boxes cross the antimeridian; an instant, an interval or none. */
  private itemMetadata(): Partial<ItemMetadata> {
    const west = Math.round(this.next() * 340 - 170);
    const south = Math.round(this.next() * 160 - 80);
    const crossing = this.next() < 0.15;
    const east = crossing ? west - 5 : Math.min(west + 1 + Math.round(this.next() * 20), 180);
    const north = Math.min(south + 1 + Math.round(this.next() * 10), 90);
    const bbox: BBox = [west, south, east, north];
    const ring = [
      [west, south],
      [west + 1, south],
      [west + 1, south + 1],
      [west, south],
    ] as const;
    const shape = this.next();
    const day = (offset: number) => new Date(Date.UTC(2020, 0, 1 + Math.round(offset))).toISOString();
    const when = this.next();
    const start = this.next() * 1000;
    return {
      bbox: shape < 0.6 ? bbox : null,
      geometry: shape >= 0.4 && shape < 0.9 ? { type: 'Polygon', coordinates: [ring] } : null,
      datetime: when < 0.4 ? day(start) : null,
      startDatetime: when >= 0.4 && when < 0.8 ? day(start) : null,
      endDatetime: when >= 0.4 && when < 0.8 ? day(start + 1 + this.next() * 100) : null,
      tags: this.next() < 0.5 ? ['scenario'] : [],
      properties: this.next() < 0.5 ? { 'eo:cloud_cover': Math.round(this.next() * 100), flag: true } : null,
    };
  }

  /**
   * The next step of some item's upload, as the item decider would allow it: a client's completion or
   * abort (only on a live item below live ancestors), the worker's attach, completion or failure, the
   * sweep's expiry (the worker and the sweep also reach an item buried by an ancestor's delete), and the
   * abort of an upload left open by the item's own delete.
   */
  private advanceUpload(): PlannedAppend | null {
    const candidates = [...this.nodes.values()].filter(({ upload }) =>
      !upload
        ? false
        : upload.selfDeleted
          ? upload.openAfterDelete
          : upload.attached !== null || ['uploading', 'processing', 'failed'].includes(upload.status),
    );
    const node = this.pick(candidates);
    const upload = node?.upload;
    if (!node || !upload) return null;
    const { started } = upload;
    const roll = this.next();
    if (upload.openAfterDelete) {
      upload.openAfterDelete = false;
      return this.bump(node, uploadAborted(started));
    }
    if (upload.attached) {
      const event = uploadCompleted(started, upload.attached);
      upload.attached = null;
      upload.status = 'ready';
      return this.bump(node, event);
    }
    // Deleted here and not by itself: buried by an ancestor, where clients get 404.
    const clientMayAct = !node.deleted;
    switch (upload.status) {
      case 'processing':
        if (roll < 0.7) {
          upload.attached = assetOf(started);
          return this.bump(node, assetAttached(started, upload.attached));
        }
        upload.status = 'failed';
        return this.bump(node, uploadFailed(started, `part ${Math.ceil(roll * 10)} is missing`));
      case 'uploading':
      case 'failed':
        if (clientMayAct && roll < 0.6) {
          upload.status = 'processing';
          return this.bump(node, completionRequested(started));
        }
        if (clientMayAct && roll < 0.8) {
          upload.status = 'aborted';
          return this.bump(node, uploadAborted(started));
        }
        upload.status = 'expired';
        return this.bump(node, uploadExpired(started));
      case 'ready':
      case 'aborted':
      case 'expired':
        // Over: not a candidate.
        return null;
    }
  }

  private bump(node: ModelNode, event: PortalObjectEvent): PlannedAppend {
    const expected = node.revision;
    node.revision += 1n;
    return this.emit(node, event, expected);
  }
}
