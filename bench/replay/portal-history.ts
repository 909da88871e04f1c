import { EVENT_SCHEMA_VERSION, type EventMetadata } from '@portal/domain';
import { SeededRandom } from './seeded-random.js';
import { SyntheticPortal, type GeneratedEvent, type TreeShape } from './synthetic-portal.js';

/** One row of `eventstore.events` without the columns the table fills itself (positions, created_at). */
export interface SeedRow {
  readonly streamId: string;
  readonly revision: number;
  readonly eventId: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

/** Shares of each event type; they need not add up to 1. */
export interface EventMix {
  readonly catalogCreated: number;
  readonly collectionCreated: number;
  readonly updated: number;
  readonly moved: number;
  readonly deleted: number;
  /** Items registered by href (as STAC clients add them) and replacements of their metadata. */
  readonly registeredItem?: number;
  readonly itemMetadata?: number;
}

/** ~70% creates (a third of them catalogs), a fifth updates, some moves, a few deletes. */
export const defaultMix: EventMix = {
  catalogCreated: 0.24,
  collectionCreated: 0.46,
  updated: 0.2,
  moved: 0.09,
  deleted: 0.01,
};

/** Creates only (a third of them catalogs): what the projector's per-create cost is measured on. */
export const createsOnlyMix: EventMix = {
  catalogCreated: 0.3,
  collectionCreated: 0.7,
  updated: 0,
  moved: 0,
  deleted: 0,
};

/**
 * A STAC catalog filling up: items registered by href into collections, a third as many metadata
 * replacements of them, and the few containers they need.
 */
export const registeredItemsMix: EventMix = {
  catalogCreated: 0.01,
  collectionCreated: 0.03,
  updated: 0,
  moved: 0,
  deleted: 0,
  registeredItem: 0.72,
  itemMetadata: 0.24,
};

/** The histories `--mix` chooses from. */
export const eventMixes = {
  default: defaultMix,
  creates: createsOnlyMix,
  items: registeredItemsMix,
} as const;
export type EventMixName = keyof typeof eventMixes;

/** A few hundred top-level catalogs per 100k objects; nearly every collection sits in a catalog. */
export const defaultShape: TreeShape = {
  maxDepth: 6,
  rootCatalogShare: 0.01,
  rootCollectionShare: 0.002,
  catalogMoveShare: 0.2,
};

const ACTORS = 40;
const ORGANIZATIONS = 6;
/** Events are ~0.5 s apart from here on, as a busy portal's history would be. */
const HISTORY_STARTS_AT = Date.parse('2026-01-05T08:00:00Z');

/**
 * The event history of a growing portal, deterministic for a seed. Operations that cannot apply yet
 * (an update before anything exists) fall back to creating a catalog.
 */
export class PortalHistory {
  private readonly random: SeededRandom;
  private readonly portal: SyntheticPortal;
  private readonly actors: { actorId: string; orgId: string }[];
  private readonly thresholds: readonly (readonly [number, () => GeneratedEvent | null])[];
  private clock = HISTORY_STARTS_AT;
  readonly counts = new Map<string, number>();

  constructor(seed: number, mix: EventMix = defaultMix, shape: TreeShape = defaultShape) {
    this.random = new SeededRandom(seed);
    this.portal = new SyntheticPortal(this.random, shape);
    const orgs = Array.from({ length: ORGANIZATIONS }, () => this.random.uuid());
    this.actors = Array.from({ length: ACTORS }, (_, index) => ({
      actorId: this.random.uuid(),
      orgId: orgs[index % ORGANIZATIONS] ?? '',
    }));
    const operations: [number, () => GeneratedEvent | null][] = [
      [mix.catalogCreated, () => this.portal.createCatalog()],
      [mix.collectionCreated, () => this.portal.createCollection()],
      [mix.updated, () => this.portal.update()],
      [mix.moved, () => this.portal.move()],
      [mix.deleted, () => this.portal.delete()],
      [mix.registeredItem ?? 0, () => this.portal.registerItem()],
      [mix.itemMetadata ?? 0, () => this.portal.updateItemMetadata()],
    ];
    const total = operations.reduce((sum, [share]) => sum + share, 0);
    let running = 0;
    this.thresholds = operations.map(([share, operation]) => {
      running += share / total;
      return [running, operation] as const;
    });
  }

  get objectCount(): number {
    return this.portal.objectCount;
  }

  next(): SeedRow {
    const roll = this.random.next();
    const operation = this.thresholds.find(([threshold]) => roll < threshold)?.[1];
    const generated = operation?.() ?? this.portal.createCatalog();
    this.counts.set(generated.event.type, (this.counts.get(generated.event.type) ?? 0) + 1);
    this.clock += 200 + this.random.int(600);
    const actor = this.random.pick(this.actors);
    const requestId = this.random.uuid();
    const metadata: EventMetadata = {
      actorId: actor.actorId,
      orgId: actor.orgId,
      correlationId: requestId,
      causationId: null,
      requestId,
      occurredAt: new Date(this.clock).toISOString(),
      // As the API writes them today: its creates carry their access, so no reader upcasts them.
      schemaVersion: EVENT_SCHEMA_VERSION,
    };
    return {
      streamId: generated.streamId,
      revision: generated.revision,
      eventId: this.random.uuid(),
      type: generated.event.type,
      data: JSON.stringify(generated.event.data),
      metadata: JSON.stringify(metadata),
    };
  }
}
