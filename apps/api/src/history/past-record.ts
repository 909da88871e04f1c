import {
  bboxOfGeometry,
  slugify,
  type CollectionExtent,
  type ItemAsset,
  type LivePortalObject,
  type RecordedEvent,
} from '@portal/domain';
import type { Pool } from '@portal/platform';
import { hrefAssetRecord, linkedObjectId, summary } from '../portal-items/portal-item-record.js';
import {
  findTodaysRow,
  findVisibleObjects,
  portalAssetUrl,
  type Principals,
  type TodaysRow,
} from '@portal/read-model-portal-objects';
import type { PastObject } from './as-of.js';

const WHOLE_WORLD = [-180, -90, 180, 90] as const;

/** A collection's extent: as given, else computed as the read model computes it today. */
function extentOf(extent: CollectionExtent | null, today: TodaysRow | null, createdAt: string) {
  if (extent !== null) return extent;
  const [west, south, east, north] = today?.items_bbox ?? WHOLE_WORLD;
  return {
    spatial: { bbox: [[west, south, east, north]] },
    temporal: {
      interval: [[today?.items_start?.toISOString() ?? createdAt, today?.items_end?.toISOString() ?? null]],
    },
  };
}

const isoOrNull = (text: string | null) => (text === null ? null : new Date(text).toISOString());

function kindFields(state: LivePortalObject, today: TodaysRow | null, createdAt: string) {
  switch (state.kind) {
    case 'collection':
      return {
        license: state.license,
        keywords: state.keywords,
        extent: extentOf(state.extent, today, createdAt),
      };
    case 'item':
      return {
        statusMessage: state.statusMessage,
        geometry: state.metadata.geometry,
        datetime: isoOrNull(state.metadata.datetime),
        start_datetime: isoOrNull(state.metadata.startDatetime),
        end_datetime: isoOrNull(state.metadata.endDatetime),
        properties: state.metadata.properties ?? {},
      };
    case 'catalog':
      return {};
    default:
      return state satisfies never;
  }
}

/** An item's bbox as the projector derives it: the one given, else the geometry's. */
function bboxOf(state: LivePortalObject) {
  if (state.kind !== 'item') return null;
  const { bbox, geometry } = state.metadata;
  return bbox ?? (geometry ? bboxOfGeometry(geometry) : null) ?? null;
}

/** When each asset was attached: its `createdAt`, which the read model takes from the same event. */
function attachedAt(events: readonly RecordedEvent[]): ReadonlyMap<string, string> {
  const times = new Map<string, string>();
  for (const event of events) {
    if (event.type !== 'AssetAttached') continue;
    const { asset } = event.data as { asset: ItemAsset };
    if (!times.has(asset.id)) times.set(asset.id, event.metadata.occurredAt);
  }
  return times;
}

function assetsOf(past: PastObject, baseUrl: string) {
  if (past.state.kind !== 'item') return [];
  const times = attachedAt(past.events);
  const itemId = past.state.id;
  const uploaded = past.state.assets.map((asset) => ({
    id: asset.id,
    key: asset.key,
    href: portalAssetUrl(itemId, asset.id, baseUrl),
    size: asset.size,
    etag: asset.etag,
    type: asset.contentType,
    fileName: asset.fileName,
    createdAt: times.get(asset.id) ?? past.events[0].metadata.occurredAt,
    source: 'upload' as const,
  }));
  return [...uploaded, ...past.state.hrefAssets.map(hrefAssetRecord)];
}

/**
 * The portal item record of an object as it was, from its folded events, in the shape of today's
 * record. Where the events do not say, today's facts stand in (docs/history.md): `linksPortalItems`
 * summarises the linked objects the caller may see today, as they are today; the slug is today's when
 * the title was the same, else the title's slug without a sibling suffix; a computed extent is today's.
 */
export async function pastRecord(pool: Pool, past: PastObject, baseUrl: string, principals: Principals) {
  const { state, events } = past;
  const createdAt = new Date(events[0].metadata.occurredAt).toISOString();
  const last = events[events.length - 1] ?? events[0];
  const linkedIds = [
    ...new Set(state.links.map((link) => linkedObjectId(link, baseUrl)).filter((id) => id !== null)),
  ];
  const [today, linkedRows] = await Promise.all([
    findTodaysRow(pool, state.id),
    findVisibleObjects(pool, linkedIds, principals),
  ]);
  const linked = new Map(linkedRows.map((row) => [row.id, row]));
  return {
    id: state.id,
    bbox: bboxOf(state),
    createdAt,
    updatedAt: new Date(last.metadata.occurredAt).toISOString(),
    status: state.kind === 'item' ? state.uploadStatus : 'ready',
    kind: state.kind,
    title: state.title,
    description: state.description,
    parentId: state.parentId,
    slug: today !== null && today.title === state.title ? today.slug : slugify(state.title),
    tags: state.kind === 'item' ? state.metadata.tags : [],
    links: state.links,
    linksPortalItems: linkedIds.flatMap((id) => {
      const target = linked.get(id);
      return target ? [summary(target)] : [];
    }),
    assets: assetsOf(past, baseUrl),
    ...kindFields(state, today, createdAt),
    ...(state.kind !== 'catalog' && state.stacId !== null && { stacId: state.stacId }),
    revision: Number(last.revision),
  };
}
