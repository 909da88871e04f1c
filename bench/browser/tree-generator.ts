import { noItemMetadata, slugify, type PortalKind, type PortalObjectEvent } from '@portal/domain';
import { SeededRandom } from '../replay/seeded-random.js';
import { seedEventRow } from '../support/seed-row.js';
import { descriptionOf } from '../replay/synthetic-content.js';

/** One row of `eventstore.events` without the columns the table fills itself. */
export interface SeedEvent {
  readonly streamId: string;
  readonly revision: number;
  readonly eventId: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

export interface TreeShape {
  /** Objects created in all: catalogs, collections and items. */
  readonly objects: number;
  /** Children of the one wide catalog (items and collections). */
  readonly wideChildren: number;
  /** Share of items among the other objects and among the wide catalog's children. */
  readonly itemShare: number;
  readonly seed: number;
}

/** Chains of catalogs this deep (2 collections beside each level), for breadcrumbs and path lookups. */
export const CHAIN_DEPTH = 24;
export const CHAINS = 8;
/** One object in this many mentions the search word in its description. */
const SEARCH_WORD_EVERY = 1000;
/**
 * One organization owns the seeded portal, and every object is public: the probes read as an anonymous
 * visitor of a public portal, so visibility filtering is part of every figure.
 */
const BENCH_ACCESS = {
  orgId: '00000000-0000-4000-8000-00000000b0b0',
  visibility: 'public',
  createdBy: '00000000-0000-4000-8000-00000000b0b1',
} as const;
export const SEARCH_WORD = 'glacier';

export interface TreeTargets {
  readonly wideNodeId: string;
  /** Per chain, the ids and slugs from the root level (index 0) down to depth `CHAIN_DEPTH`. */
  readonly chains: readonly { readonly ids: readonly string[]; readonly slugs: readonly string[] }[];
}

const topics = ['Orthophotos', 'Elevation', 'Land cover', 'Cadastre', 'Roads', 'Hydrography', 'Buildings'];
const regions = ['Bavaria', 'Tyrol', 'Lombardy', 'Provence', 'Flanders', 'Zealand', 'Bohemia', 'Styria'];
const MIB = 1024 ** 2;

/**
 * The event history of a large portal, built for the browser benchmark and deterministic per seed:
 * `CHAINS` chains `CHAIN_DEPTH` catalogs deep, one catalog with `wideChildren` children, and the rest a
 * broad portal (root catalogs, sub-catalogs, collections in them, items in the collections). Items go
 * through their upload: most become `ready` with an asset, some stay `uploading` or `processing`, a few
 * fail. Every parent is created before its children.
 */
export class TreeGenerator {
  private readonly random: SeededRandom;
  private readonly orgs: string[];
  private readonly actors: { actorId: string; orgId: string }[];
  private clock = Date.parse('2026-01-05T08:00:00Z');
  private ordinal = 0;
  readonly counts = new Map<string, number>();
  readonly objectsByKind = new Map<PortalKind, number>();
  private readonly chainIds: string[][] = [];
  private wideNodeId = '';

  constructor(private readonly shape: TreeShape) {
    this.random = new SeededRandom(shape.seed);
    this.orgs = Array.from({ length: 6 }, () => this.random.uuid());
    this.actors = Array.from({ length: 40 }, (_, index) => ({
      actorId: this.random.uuid(),
      orgId: this.orgs[index % this.orgs.length] ?? '',
    }));
    if (this.fixedObjects() > shape.objects) {
      throw new RangeError(
        `--objects must be at least ${this.fixedObjects()} for ${shape.wideChildren} wide children`,
      );
    }
  }

  private fixedObjects(): number {
    return CHAINS * CHAIN_DEPTH * 3 + 1 + this.shape.wideChildren;
  }

  /** What the benchmark requests; complete once `events()` has been read to the end. */
  targets(): TreeTargets {
    return {
      wideNodeId: this.wideNodeId,
      chains: this.chainIds.map((ids, chain) => ({
        ids,
        slugs: ids.map((_, level) => slugify(chainTitle(chain, level))),
      })),
    };
  }

  /** Every event, in append order. */
  *events(): Generator<SeedEvent> {
    yield* this.chains();
    this.wideNodeId = this.random.uuid();
    yield* this.catalog(this.wideNodeId, null, 'Wide catalog');
    const rest = this.shape.objects - this.fixedObjects();
    const rootCatalogs = Math.max(4, Math.round(rest / 5000));
    const subCatalogs = Math.max(8, Math.round(rest / 500));
    const items = Math.round(rest * this.shape.itemShare);
    const collections = Math.max(0, rest - rootCatalogs - subCatalogs - items);
    const roots = Array.from({ length: rootCatalogs }, () => this.random.uuid());
    for (const id of roots) yield* this.catalog(id, null, this.title('catalog'));
    const subs = Array.from({ length: subCatalogs }, () => this.random.uuid());
    for (const id of subs) yield* this.catalog(id, this.random.pick(roots), this.title('catalog'));
    const collectionIds: string[] = [];
    for (let index = 0; index < collections; index += 1) {
      const id = this.random.uuid();
      collectionIds.push(id);
      yield* this.collection(id, this.random.pick(subs));
    }
    // The wide catalog's children arrive among the other items, as a pipeline's would.
    const wideItems = Math.round(this.shape.wideChildren * this.shape.itemShare);
    const wideCollections = this.shape.wideChildren - wideItems;
    for (let index = 0; index < wideCollections; index += 1)
      yield* this.collection(this.random.uuid(), this.wideNodeId);
    // Bresenham's spread: exactly `wideItems` of them go to the wide catalog, evenly among the others.
    const spread = items + wideItems;
    for (let index = 0; index < spread; index += 1) {
      const toWide =
        Math.floor(((index + 1) * wideItems) / spread) > Math.floor((index * wideItems) / spread);
      yield* this.item(
        toWide ? this.wideNodeId : this.random.pick(collectionIds.length > 0 ? collectionIds : subs),
      );
    }
  }

  private *chains(): Generator<SeedEvent> {
    for (let chain = 0; chain < CHAINS; chain += 1) {
      const ids: string[] = [];
      let parent: string | null = null;
      for (let level = 0; level < CHAIN_DEPTH; level += 1) {
        const id = this.random.uuid();
        ids.push(id);
        yield* this.catalog(id, parent, chainTitle(chain, level));
        for (let sibling = 0; sibling < 2; sibling += 1) yield* this.collection(this.random.uuid(), parent);
        parent = id;
      }
      this.chainIds.push(ids);
    }
  }

  private title(kind: PortalKind): string {
    const n = this.ordinal;
    return `${topics[n % topics.length] ?? ''} ${regions[(n >> 3) % regions.length] ?? ''} ${kind} ${n}`;
  }

  private description(): string {
    const text = descriptionOf(this.ordinal, 0);
    return this.ordinal % SEARCH_WORD_EVERY === 0 ? `${text} With ${SEARCH_WORD} outlines.` : text;
  }

  private *catalog(id: string, parentId: string | null, title: string): Generator<SeedEvent> {
    yield this.row('catalog', id, 0, {
      type: 'CatalogCreated',
      data: { id, title, description: this.description(), parentId, links: [], ...BENCH_ACCESS },
    });
    this.created('catalog');
  }

  private *collection(id: string, parentId: string | null): Generator<SeedEvent> {
    yield this.row('collection', id, 0, {
      type: 'CollectionCreated',
      data: {
        id,
        title: this.title('collection'),
        description: this.description(),
        parentId,
        links: [],
        license: 'CC-BY-4.0',
        keywords: ['raster'],
        extent: null,
        ...BENCH_ACCESS,
      },
    });
    this.created('collection');
  }

  /** An item and its upload: 85% ready (with an asset), 8% uploading, 5% processing, 2% failed. */
  private *item(parentId: string): Generator<SeedEvent> {
    const id = this.random.uuid();
    const uploadId = `upload-${this.ordinal}`;
    const size = MIB + this.random.int(2048) * MIB;
    const fileName = `tile-${this.ordinal}.tif`;
    const key = `items/${id}/${fileName}`;
    const upload = {
      uploadId,
      bucket: 'portal-assets',
      key,
      partSize: 64 * MIB,
      partCount: Math.ceil(size / (64 * MIB)),
      size,
      fileName,
      contentType: 'image/tiff',
      expiresAt: new Date(this.clock + 7 * 24 * 3600 * 1000).toISOString(),
    };
    const metadata = noItemMetadata;
    const title = this.title('item');
    const description = this.description();
    yield this.row('item', id, 0, {
      type: 'ItemUploadStarted',
      data: { id, title, description, parentId, links: [], metadata, upload, ...BENCH_ACCESS },
    });
    this.created('item');
    const roll = this.random.next();
    if (roll < 0.08) return;
    yield this.row('item', id, 1, { type: 'UploadCompletionRequested', data: { id, uploadId, parts: null } });
    if (roll < 0.13) return;
    if (roll < 0.15) {
      yield this.row('item', id, 2, {
        type: 'UploadFailed',
        data: { id, uploadId, statusMessage: 'a part is missing; upload it and complete again' },
      });
      return;
    }
    const assetId = this.random.uuid();
    yield this.row('item', id, 2, {
      type: 'AssetAttached',
      data: {
        id,
        asset: {
          id: assetId,
          bucket: 'portal-assets',
          key,
          size,
          etag: '"bench-etag"',
          contentType: 'image/tiff',
          fileName,
        },
      },
    });
    yield this.row('item', id, 3, { type: 'UploadCompleted', data: { id, uploadId, assetId } });
  }

  private created(kind: PortalKind): void {
    this.objectsByKind.set(kind, (this.objectsByKind.get(kind) ?? 0) + 1);
    this.ordinal += 1;
  }

  private row(kind: PortalKind, id: string, revision: number, event: PortalObjectEvent): SeedEvent {
    this.counts.set(event.type, (this.counts.get(event.type) ?? 0) + 1);
    this.clock += 50 + this.random.int(100);
    const actor = this.random.pick(this.actors);
    // In this order: the seed reproduces the same ids.
    const requestId = this.random.uuid();
    const eventId = this.random.uuid();
    return seedEventRow(kind, id, revision, event, { ...actor, requestId, eventId, occurredAt: this.clock });
  }
}

function chainTitle(chain: number, level: number): string {
  return level === 0 ? `Deep chain ${chain}` : `Level ${level + 1}`;
}
