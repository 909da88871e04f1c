import {
  type GeoJsonGeometry,
  type GeoJsonPosition,
  type PortalKind,
  type PortalObjectEvent,
} from '@portal/domain';
import { SeededRandom } from '../replay/seeded-random.js';
import { seedEventRow } from '../support/seed-row.js';
import type { SeedEvent } from '../browser/tree-generator.js';

export interface SceneShape {
  readonly items: number;
  readonly collections: number;
  /** Share of items whose upload completes (three more events each, and an asset in the item's JSON). */
  readonly readyShare: number;
  readonly seed: number;
  /** Collections carry STAC names (`archive-1`, …): their items' JSON is then rendered at batch end. */
  readonly namedCollections: boolean;
}

/** Scenes gather around this many places, as a satellite's acquisitions over areas of interest do. */
const CLUSTERS = 200;
/** Ten years of acquisitions. */
const FIRST_DAY = Date.parse('2015-01-01T00:00:00Z');
const DAYS = 3650;
const DAY_MS = 24 * 3600 * 1000;
const MIB = 1024 ** 2;
const platforms = ['sentinel-2a', 'sentinel-2b', 'landsat-8', 'landsat-9'];
/** Every object is public: the probes read as an anonymous client, so visibility is in every figure. */
const BENCH_ACCESS = {
  orgId: '00000000-0000-4000-8000-00000000c0c0',
  visibility: 'public',
  createdBy: '00000000-0000-4000-8000-00000000c0c1',
} as const;

export interface SceneTargets {
  readonly collectionIds: readonly string[];
  /** 5°×5° boxes around the first clusters, where scenes are dense: a search's area of interest. */
  readonly boxes: readonly (readonly [number, number, number, number])[];
  /** STAC ids of scenes spread over the archive (one in `NAME_SAMPLE_EVERY`): what `ids` asks for. */
  readonly names: readonly string[];
}

/** Every this many scenes, one's name is kept for the `ids` searches. */
const NAME_SAMPLE_EVERY = 997;

/**
 * The history of a satellite archive, deterministic per seed: `collections` root-level collections and
 * `items` scenes spread over them, each a footprint of about 1°×1° (a tilted quadrilateral, as a
 * scene's outline is) near one of `CLUSTERS` centres, an acquisition time over ten years (one in ten a
 * time range), `eo:cloud_cover` 0–100 and a platform.
 */
export class SceneGenerator {
  private readonly random: SeededRandom;
  private readonly centres: readonly (readonly [number, number])[];
  private readonly collectionIds: string[] = [];
  private readonly names: string[] = [];
  private clock = Date.parse('2026-01-05T08:00:00Z');
  readonly counts = new Map<string, number>();

  constructor(private readonly shape: SceneShape) {
    this.random = new SeededRandom(shape.seed);
    this.centres = Array.from({ length: CLUSTERS }, () => [
      -170 + this.random.next() * 340,
      -60 + this.random.next() * 130,
    ]);
  }

  targets(): SceneTargets {
    const boxes = this.centres
      .slice(0, 20)
      .map(([x, y]) => [x - 2.5, Math.max(-90, y - 2.5), x + 2.5, Math.min(90, y + 2.5)] as const);
    return { collectionIds: this.collectionIds, boxes, names: this.names };
  }

  *events(): Generator<SeedEvent> {
    for (let index = 0; index < this.shape.collections; index += 1) {
      const id = this.random.uuid();
      this.collectionIds.push(id);
      yield this.row('collection', id, 0, {
        type: 'CollectionCreated',
        data: {
          id,
          title: `Archive ${index + 1}`,
          description: `Scenes of platform group ${index + 1}`,
          parentId: null,
          links: [],
          license: 'CC-BY-4.0',
          keywords: ['optical', 'satellite'],
          extent: null,
          ...(this.shape.namedCollections && { stacId: `archive-${index + 1}` }),
          ...BENCH_ACCESS,
        },
      });
    }
    for (let index = 0; index < this.shape.items; index += 1) yield* this.item(index);
  }

  private footprint(): GeoJsonGeometry {
    const [cx, cy] = this.random.pick(this.centres);
    // Within ±10° by ±5° of the centre, kept off the poles and the antimeridian.
    const x = Math.min(178, Math.max(-179, cx + (this.random.next() - 0.5) * 20));
    const y = Math.min(84, Math.max(-85, cy + (this.random.next() - 0.5) * 10));
    const tilt = 0.1 + this.random.next() * 0.1;
    const round = (value: number): number => Math.round(value * 1e5) / 1e5;
    const corner = (lon: number, lat: number): GeoJsonPosition => [round(lon), round(lat)];
    const ring = [
      corner(x + tilt, y),
      corner(x + 1 + tilt, y + tilt / 2),
      corner(x + 1, y + 1),
      corner(x, y + 1 - tilt / 2),
      corner(x + tilt, y),
    ];
    return { type: 'Polygon', coordinates: [ring] };
  }

  private *item(index: number): Generator<SeedEvent> {
    const id = this.random.uuid();
    const parentId = this.collectionIds[index % this.collectionIds.length] ?? null;
    if (parentId === null) throw new RangeError('--collections must be at least 1');
    const acquired = FIRST_DAY + this.random.next() * DAYS * DAY_MS;
    const ranged = index % 10 === 0;
    const uploadId = `upload-${index}`;
    const fileName = `scene-${index}.tif`;
    const size = 100 * MIB + this.random.int(900) * MIB;
    const key = `items/${id}/${fileName}`;
    // Named as missions name scenes (docs/stac.md, "Item ids"): its time and a tile of its own. Drawing
    // nothing from the random source, it leaves the archive of a seed as it was.
    const acquiredAt = new Date(acquired).toISOString().slice(0, 19).replace(/[-:]/g, '');
    const stacId = `SCENE_${acquiredAt}_T${index.toString(36).toUpperCase().padStart(5, '0')}`;
    if (index % NAME_SAMPLE_EVERY === 0) this.names.push(stacId);
    yield this.row('item', id, 0, {
      type: 'ItemUploadStarted',
      data: {
        id,
        title: `Scene ${index}`,
        description: null,
        parentId,
        links: [],
        metadata: {
          geometry: this.footprint(),
          bbox: null,
          datetime: ranged ? null : new Date(acquired).toISOString(),
          startDatetime: ranged ? new Date(acquired).toISOString() : null,
          endDatetime: ranged ? new Date(acquired + this.random.next() * 90 * DAY_MS).toISOString() : null,
          tags: [],
          properties: {
            'eo:cloud_cover': this.random.int(101),
            platform: this.random.pick(platforms),
          },
        },
        upload: {
          uploadId,
          bucket: 'portal-assets',
          key,
          partSize: 64 * MIB,
          partCount: Math.ceil(size / (64 * MIB)),
          size,
          fileName,
          contentType: 'image/tiff; application=geotiff',
          expiresAt: new Date(this.clock + 7 * DAY_MS).toISOString(),
        },
        stacId,
        ...BENCH_ACCESS,
      },
    });
    if (!this.random.chance(this.shape.readyShare)) return;
    yield this.row('item', id, 1, { type: 'UploadCompletionRequested', data: { id, uploadId, parts: null } });
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
          contentType: 'image/tiff; application=geotiff',
          fileName,
        },
      },
    });
    yield this.row('item', id, 3, { type: 'UploadCompleted', data: { id, uploadId, assetId } });
  }

  private row(kind: PortalKind, id: string, revision: number, event: PortalObjectEvent): SeedEvent {
    this.counts.set(event.type, (this.counts.get(event.type) ?? 0) + 1);
    this.clock += 20 + this.random.int(40);
    const requestId = this.random.uuid();
    return seedEventRow(kind, id, revision, event, {
      actorId: BENCH_ACCESS.createdBy,
      orgId: BENCH_ACCESS.orgId,
      requestId,
      eventId: this.random.uuid(),
      occurredAt: this.clock,
    });
  }
}
