import {
  bboxOfGeometry,
  type CatalogCreated,
  type CollectionCreated,
  type ItemMetadata,
  type ItemRegistered,
  type ItemUploadStarted,
  type RecordedEvent,
  type UploadPlan,
} from '@portal/domain';
import type { NewObject } from './placed-insert.js';

export type CreateEvent = CatalogCreated | CollectionCreated | ItemUploadStarted | ItemRegistered;

/**
 * The `portal_objects` row a create inserts, as parameter values (JSON as text, revisions as strings),
 * whether it goes in alone or in a run. Its place, slug and inherited access come from the parent row.
 */
export interface NewObjectRow extends NewObject {
  readonly kind: 'catalog' | 'collection' | 'item';
  /** `ready` for catalogs, collections and items registered by href; an uploaded item starts `uploading`. */
  readonly status: 'ready' | 'uploading';
  readonly description: string | null;
  readonly links: string;
  readonly license: string | null;
  readonly keywords: string | null;
  readonly extent: string | null;
  /** `null` for catalogs and collections: the column's default. */
  readonly tags: string | null;
  readonly bbox: readonly number[] | null;
  readonly geometry: string | null;
  readonly datetime: string | null;
  readonly startDatetime: string | null;
  readonly endDatetime: string | null;
  readonly properties: string | null;
  readonly version: string;
  /** An item's upload, inserted with it. */
  readonly upload: UploadPlan | null;
  /** An item's assets registered by href, as JSON; `null` for catalogs and collections. */
  readonly hrefAssets: string | null;
  /** The id a STAC client gave the item or collection (`stacId` of its create); else `null`. */
  readonly stacId: string | null;
}

/** The columns an item's metadata fills, whether it is uploaded or registered by href. */
export function itemColumns(metadata: ItemMetadata) {
  return {
    license: null,
    keywords: null,
    extent: null,
    tags: JSON.stringify(metadata.tags),
    // The bbox the client gave, else the geometry's: what the collection's extent and bbox searches use.
    bbox: metadata.bbox ?? (metadata.geometry ? bboxOfGeometry(metadata.geometry) : undefined) ?? null,
    geometry: metadata.geometry ? JSON.stringify(metadata.geometry) : null,
    datetime: metadata.datetime ?? null,
    startDatetime: metadata.startDatetime ?? null,
    endDatetime: metadata.endDatetime ?? null,
    properties: metadata.properties ? JSON.stringify(metadata.properties) : null,
  };
}

/** What a create's kind decides of its row; the rest comes from the event's common fields. */
interface KindColumns {
  readonly kind: NewObjectRow['kind'];
  readonly status: NewObjectRow['status'];
  readonly license: string | null;
  readonly keywords: string | null;
  readonly extent: string | null;
  readonly item: ReturnType<typeof itemColumns> | null;
  readonly upload: UploadPlan | null;
  readonly hrefAssets: string | null;
  readonly stacId: string | null;
}

function kindColumns(event: CreateEvent): KindColumns {
  switch (event.type) {
    case 'CatalogCreated':
      return {
        kind: 'catalog',
        status: 'ready',
        license: null,
        keywords: null,
        extent: null,
        item: null,
        upload: null,
        hrefAssets: null,
        stacId: null,
      };
    case 'CollectionCreated':
      return {
        kind: 'collection',
        status: 'ready',
        license: event.data.license,
        keywords: JSON.stringify(event.data.keywords),
        extent: event.data.extent ? JSON.stringify(event.data.extent) : null,
        item: null,
        upload: null,
        hrefAssets: null,
        stacId: event.data.stacId ?? null,
      };
    case 'ItemUploadStarted':
      return {
        kind: 'item',
        status: 'uploading',
        license: null,
        keywords: null,
        extent: null,
        item: itemColumns(event.data.metadata),
        upload: event.data.upload,
        hrefAssets: '[]',
        stacId: event.data.stacId ?? null,
      };
    case 'ItemRegistered':
      return {
        kind: 'item',
        status: 'ready',
        license: null,
        keywords: null,
        extent: null,
        item: itemColumns(event.data.metadata),
        upload: null,
        hrefAssets: JSON.stringify(event.data.assets),
        stacId: event.data.stacId ?? null,
      };
    default:
      return exhausted(event);
  }
}

// Written field by field, without object spreads: V8 builds a spread of several objects into a literal
// slowly (tens of microseconds here), and a rebuild makes one row per create of the whole history.
export function newObjectRow(event: CreateEvent, recorded: RecordedEvent): NewObjectRow {
  const { kind, status, license, keywords, extent, item, upload, hrefAssets, stacId } = kindColumns(event);
  return {
    id: event.data.id,
    parentId: event.data.parentId,
    title: event.data.title,
    occurredAt: recorded.metadata.occurredAt,
    orgId: event.data.orgId,
    visibility: event.data.visibility,
    createdBy: event.data.createdBy,
    description: event.data.description,
    links: JSON.stringify(event.data.links),
    version: recorded.revision.toString(),
    kind,
    status,
    license,
    keywords,
    extent,
    // `null` for catalogs and collections (the columns' defaults).
    tags: item?.tags ?? null,
    bbox: item?.bbox ?? null,
    geometry: item?.geometry ?? null,
    datetime: item?.datetime ?? null,
    startDatetime: item?.startDatetime ?? null,
    endDatetime: item?.endDatetime ?? null,
    properties: item?.properties ?? null,
    upload,
    hrefAssets,
    stacId,
  };
}

function exhausted(event: never): never {
  throw new Error(`unhandled create event ${JSON.stringify(event)}`);
}
