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

export function newObjectRow(event: CreateEvent, recorded: RecordedEvent): NewObjectRow {
  const common = {
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
  };
  const none = {
    tags: null,
    bbox: null,
    geometry: null,
    datetime: null,
    startDatetime: null,
    endDatetime: null,
    properties: null,
    upload: null,
    hrefAssets: null,
  };
  switch (event.type) {
    case 'CatalogCreated':
      return {
        ...common,
        ...none,
        kind: 'catalog',
        status: 'ready',
        license: null,
        keywords: null,
        extent: null,
      };
    case 'CollectionCreated':
      return {
        ...common,
        ...none,
        kind: 'collection',
        status: 'ready',
        license: event.data.license,
        keywords: JSON.stringify(event.data.keywords),
        extent: event.data.extent ? JSON.stringify(event.data.extent) : null,
      };
    case 'ItemUploadStarted':
      return {
        ...common,
        ...itemColumns(event.data.metadata),
        kind: 'item',
        status: 'uploading',
        upload: event.data.upload,
        hrefAssets: '[]',
      };
    case 'ItemRegistered':
      return {
        ...common,
        ...itemColumns(event.data.metadata),
        kind: 'item',
        status: 'ready',
        upload: null,
        hrefAssets: JSON.stringify(event.data.assets),
      };
    default:
      return exhausted(event);
  }
}

function exhausted(event: never): never {
  throw new Error(`unhandled create event ${JSON.stringify(event)}`);
}
