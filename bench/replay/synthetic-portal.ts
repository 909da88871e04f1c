import type { CreatedAccess, PortalKind, PortalObjectEvent } from '@portal/domain';
import type { SeededRandom } from './seeded-random.js';
import {
  descriptionOf,
  extentOf,
  hrefAssetsOf,
  itemMetadataOf,
  keywordsOf,
  licenseOf,
  linksOf,
  titleOf,
} from './synthetic-content.js';

/** One organization owns the synthetic portal; its objects are visible to its members. */
const syntheticAccess: CreatedAccess = {
  orgId: '00000000-0000-4000-8000-0000000000a1',
  visibility: 'org',
  createdBy: '00000000-0000-4000-8000-0000000000a2',
};

export interface GeneratedEvent {
  readonly streamId: string;
  /** 0 for the stream's first event. */
  readonly revision: number;
  readonly event: PortalObjectEvent;
}

export interface TreeShape {
  /** Catalogs at this depth take no child catalogs, so the tree stays this deep. */
  readonly maxDepth: number;
  /** Share of new catalogs (and of new collections) placed at root level. */
  readonly rootCatalogShare: number;
  readonly rootCollectionShare: number;
  /** Share of moves that move a catalog (with its subtree) rather than a collection. */
  readonly catalogMoveShare: number;
}

/** A list with O(1) random pick and O(1) removal (swap with the last). */
class PickableSet {
  private readonly items: number[] = [];
  private readonly slots = new Map<number, number>();

  get size(): number {
    return this.items.length;
  }

  add(item: number): void {
    this.slots.set(item, this.items.length);
    this.items.push(item);
  }

  remove(item: number): void {
    const slot = this.slots.get(item);
    const last = this.items.pop();
    if (slot === undefined || last === undefined) return;
    this.slots.delete(item);
    if (last !== item) {
      this.items[slot] = last;
      this.slots.set(last, slot);
    }
  }

  pick(random: SeededRandom): number | undefined {
    return this.items.length === 0 ? undefined : this.items[random.int(this.items.length)];
  }
}

/** Field versions per object: bumped by each update that changes the field. */
type VersionedField = 'title' | 'description' | 'links' | 'keywords' | 'license';

/**
 * A portal that grows by the domain's rules: catalogs under catalogs (bounded depth), collections under
 * catalogs, moves that never make a cycle or deepen the tree, deletes of collections only (they have
 * no children here), revisions per stream. Each operation returns the event the decider would emit.
 */
export class SyntheticPortal {
  private readonly ids: string[] = [];
  private readonly kinds: PortalKind[] = [];
  private readonly parents: number[] = [];
  private readonly depths: number[] = [];
  private readonly revisions: number[] = [];
  private readonly versions = new Map<VersionedField, number[]>(
    (['title', 'description', 'links', 'keywords', 'license'] as const).map((field) => [field, []]),
  );
  private readonly catalogs = new PickableSet();
  private readonly nestableCatalogs = new PickableSet();
  private readonly catalogsByDepth: PickableSet[] = [];
  private readonly liveCollections = new PickableSet();
  private readonly liveObjects = new PickableSet();
  /** Items registered by href, and the version of each one's metadata. */
  private readonly liveItems = new PickableSet();
  private readonly metadataVersions = new Map<number, number>();
  /** Collections holding items: never deleted here (the delete is not recursive). */
  private readonly filledCollections = new Set<number>();

  constructor(
    private readonly random: SeededRandom,
    private readonly shape: TreeShape,
  ) {}

  get objectCount(): number {
    return this.ids.length;
  }

  createCatalog(): GeneratedEvent {
    const random = this.random;
    const atRoot = this.nestableCatalogs.size === 0 || random.chance(this.shape.rootCatalogShare);
    const parent = atRoot ? -1 : (this.nestableCatalogs.pick(random) ?? -1);
    const index = this.addObject('catalog', parent);
    const depth = this.depthOf(index);
    this.catalogs.add(index);
    if (depth < this.shape.maxDepth) this.nestableCatalogs.add(index);
    this.byDepth(depth).add(index);
    return this.created(index, {
      type: 'CatalogCreated',
      data: { ...this.commonFields(index), parentId: this.idOrNull(parent) },
    });
  }

  createCollection(): GeneratedEvent {
    const atRoot = this.catalogs.size === 0 || this.random.chance(this.shape.rootCollectionShare);
    const parent = atRoot ? -1 : (this.catalogs.pick(this.random) ?? -1);
    const index = this.addObject('collection', parent);
    this.liveCollections.add(index);
    return this.created(index, {
      type: 'CollectionCreated',
      data: {
        ...this.commonFields(index),
        parentId: this.idOrNull(parent),
        license: licenseOf(index, 0),
        keywords: keywordsOf(index, 0),
        extent: extentOf(index),
      },
    });
  }

  /** `null` when there is nothing to update yet. */
  update(): GeneratedEvent | null {
    const index = this.liveObjects.pick(this.random);
    if (index === undefined) return null;
    const kind = this.kindOf(index);
    const changes: Record<string, unknown> = {};
    const previous: Record<string, unknown> = {};
    const change = (field: VersionedField, valueAt: (version: number) => unknown): void => {
      const before = this.version(field, index);
      const [old, next] = [valueAt(before), valueAt(before + 1)];
      if (JSON.stringify(old) === JSON.stringify(next)) return;
      this.setVersion(field, index, before + 1);
      previous[field] = old;
      changes[field] = next;
    };
    const label = kind === 'catalog' ? 'Catalog' : 'Collection';
    change('description', (version) => descriptionOf(index, version));
    if (this.random.chance(0.3)) change('title', (version) => titleOf(label, index, version));
    if (this.random.chance(0.2)) change('links', (version) => linksOf(index, version));
    if (kind === 'collection' && this.random.chance(0.25)) change('keywords', (v) => keywordsOf(index, v));
    if (kind === 'collection' && this.random.chance(0.1)) change('license', (v) => licenseOf(index, v));
    return this.next(index, {
      type: 'PortalObjectUpdated',
      data: {
        id: this.idOf(index),
        kind,
        changes,
        previous,
      },
    });
  }

  /** `null` when no move is possible yet (fewer than two catalogs). */
  move(): GeneratedEvent | null {
    if (this.random.chance(this.shape.catalogMoveShare)) {
      const moved = this.moveCatalog();
      if (moved) return moved;
    }
    return this.moveCollection();
  }

  /** An item registered by href in a collection (a STAC client's add); `null` when there is none. */
  registerItem(): GeneratedEvent | null {
    const parent = this.liveCollections.pick(this.random);
    if (parent === undefined) return null;
    const index = this.addObject('item', parent);
    this.liveObjects.remove(index);
    this.liveItems.add(index);
    this.metadataVersions.set(index, 0);
    this.filledCollections.add(parent);
    const id = this.idOf(index);
    return this.created(index, {
      type: 'ItemRegistered',
      data: {
        id,
        title: titleOf('Scene', index, 0),
        description: null,
        parentId: this.idOf(parent),
        links: [],
        metadata: itemMetadataOf(index, 0),
        assets: hrefAssetsOf(index, [this.random.uuid(), this.random.uuid()]),
        ...syntheticAccess,
      },
    });
  }

  /** An item's metadata replaced (a STAC PUT, or a portal PATCH of its cloud cover); `null` without items. */
  updateItemMetadata(): GeneratedEvent | null {
    const index = this.liveItems.pick(this.random);
    if (index === undefined) return null;
    const version = this.metadataVersions.get(index) ?? 0;
    this.metadataVersions.set(index, version + 1);
    return this.next(index, {
      type: 'PortalObjectUpdated',
      data: {
        id: this.idOf(index),
        kind: 'item',
        changes: { metadata: itemMetadataOf(index, version + 1) },
        previous: { metadata: itemMetadataOf(index, version) },
      },
    });
  }

  /** Deletes a collection (a leaf here); `null` when there is none. */
  delete(): GeneratedEvent | null {
    const index = this.liveCollections.pick(this.random);
    if (index === undefined || this.filledCollections.has(index)) return null;
    this.liveCollections.remove(index);
    this.liveObjects.remove(index);
    return this.next(index, {
      type: 'PortalObjectDeleted',
      data: { id: this.idOf(index), kind: 'collection', recursive: false },
    });
  }

  /** Same depth only: the subtree keeps its depth, and a catalog at the parent's depth is never inside it. */
  private moveCatalog(): GeneratedEvent | null {
    const index = this.catalogs.pick(this.random);
    if (index === undefined) return null;
    const depth = this.depthOf(index);
    if (depth < 2) return null;
    const from = this.parentOf(index);
    const to = this.catalogsByDepth[depth - 1]?.pick(this.random);
    if (to === undefined || to === from) return null;
    return this.reparent(index, 'catalog', to);
  }

  private moveCollection(): GeneratedEvent | null {
    const index = this.liveCollections.pick(this.random);
    if (index === undefined || this.catalogs.size < 2) return null;
    const from = this.parentOf(index);
    let to = this.random.chance(this.shape.rootCollectionShare)
      ? -1
      : (this.catalogs.pick(this.random) ?? -1);
    for (let attempt = 0; to === from && attempt < 4; attempt += 1)
      to = this.catalogs.pick(this.random) ?? -1;
    if (to === from) return null;
    return this.reparent(index, 'collection', to);
  }

  private reparent(index: number, kind: PortalKind, to: number): GeneratedEvent {
    const from = this.parentOf(index);
    this.parents[index] = to;
    return this.next(index, {
      type: 'PortalObjectMoved',
      data: { id: this.idOf(index), kind, fromParentId: this.idOrNull(from), toParentId: this.idOrNull(to) },
    });
  }

  private addObject(kind: PortalKind, parent: number): number {
    const index = this.ids.length;
    this.ids.push(this.random.uuid());
    this.kinds.push(kind);
    this.parents.push(parent);
    this.depths.push(parent === -1 ? 1 : this.depthOf(parent) + 1);
    this.revisions.push(0);
    for (const versions of this.versions.values()) versions.push(0);
    this.liveObjects.add(index);
    return index;
  }

  private commonFields(index: number): {
    id: string;
    title: string;
    description: string;
    links: ReturnType<typeof linksOf>;
  } & CreatedAccess {
    const label = this.kindOf(index) === 'catalog' ? 'Catalog' : 'Collection';
    return {
      id: this.idOf(index),
      title: titleOf(label, index, 0),
      description: descriptionOf(index, 0),
      links: linksOf(index, 0),
      ...syntheticAccess,
    };
  }

  private created(index: number, event: PortalObjectEvent): GeneratedEvent {
    return { streamId: `${this.kindOf(index)}-${this.idOf(index)}`, revision: 0, event };
  }

  private next(index: number, event: PortalObjectEvent): GeneratedEvent {
    const revision = (this.revisions[index] ?? 0) + 1;
    this.revisions[index] = revision;
    return { streamId: `${this.kindOf(index)}-${this.idOf(index)}`, revision, event };
  }

  private byDepth(depth: number): PickableSet {
    let set = this.catalogsByDepth[depth];
    if (!set) {
      set = new PickableSet();
      this.catalogsByDepth[depth] = set;
    }
    return set;
  }

  private version(field: VersionedField, index: number): number {
    return this.versions.get(field)?.[index] ?? 0;
  }

  private setVersion(field: VersionedField, index: number, version: number): void {
    const versions = this.versions.get(field);
    if (versions) versions[index] = version;
  }

  private idOf(index: number): string {
    const id = this.ids[index];
    if (id === undefined) throw new RangeError(`no object ${index}`);
    return id;
  }

  private idOrNull(index: number): string | null {
    return index === -1 ? null : this.idOf(index);
  }

  private kindOf(index: number): PortalKind {
    return this.kinds[index] ?? 'catalog';
  }

  private parentOf(index: number): number {
    return this.parents[index] ?? -1;
  }

  private depthOf(index: number): number {
    return this.depths[index] ?? 1;
  }
}
