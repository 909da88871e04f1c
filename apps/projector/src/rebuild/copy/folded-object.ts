import type { PortalKind, Visibility } from '@portal/domain';
import type { Box, ItemsExtent } from './extent-fold.js';
import type { Stamp } from './timestamps.js';

/** One share as the `shares` column keeps it. */
export interface FoldedShare {
  readonly type: string;
  readonly id: string;
  readonly permission: string;
}

/**
 * A `portal_objects` row as the fold keeps it while it folds the history: the columns (JSON as the text
 * the SQL path sends, timestamps as their text) and, beside them, the ids of its children (live and
 * tombstoned: what `ancestor_ids @> ARRAY[id]` finds one level down) so a subtree is walked, not searched.
 */
export interface FoldedObject {
  readonly id: string;
  readonly kind: PortalKind;
  status: string;
  title: string;
  description: string | null;
  parentId: string | null;
  /** The row `parentId` names, held directly: paths are walked up at every create and audit row. */
  parent: FoldedObject | null;
  readonly orgId: string | null;
  slug: string;
  /** Filled when the history is folded (`PortalFold.finish`), from the parents; until then `pathOf`. */
  ancestorIds: readonly string[];
  depth: number;
  childCount: number;
  links: string;
  license: string | null;
  keywords: string | null;
  extent: string | null;
  bbox: Box | null;
  tags: string;
  version: bigint;
  readonly createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  statusMessage: string | null;
  geometry: string | null;
  datetime: Stamp | null;
  startDatetime: Stamp | null;
  endDatetime: Stamp | null;
  properties: string | null;
  hrefAssets: string;
  /** The item's STAC name (`stacId` of its create event), set once. */
  readonly stacId: string | null;
  itemsExtent: ItemsExtent;
  assetBytes: number;
  visibility: Visibility;
  effectiveVisibility: Visibility;
  readonly createdBy: string | null;
  shares: readonly FoldedShare[];
  /** Filled when the history is folded (`PortalFold.finish`), parents first. */
  shareReaders: readonly string[];
  shareEditors: readonly string[];
  readPrincipals: readonly string[];
  /** `noChildren` until the first child arrives (most rows never get one): `addChild`, `removeChild`. */
  children: ReadonlySet<string>;
}

/**
 * Shared by every row that has none, instead of an empty collection each: a folded portal holds every
 * object until the head, and the garbage collector walks all of it again at each major collection.
 */
export const noChildren: ReadonlySet<string> = new Set();
export const noElements: readonly never[] = Object.freeze([]);

export function addChild(parent: FoldedObject, childId: string): void {
  if (parent.children === noChildren) parent.children = new Set([childId]);
  else (parent.children as Set<string>).add(childId);
}

export function removeChild(parent: FoldedObject, childId: string): void {
  if (parent.children !== noChildren) (parent.children as Set<string>).delete(childId);
}

/** An item's `uploads` row. */
export interface FoldedUpload {
  readonly itemId: string;
  readonly uploadId: string;
  readonly bucket: string;
  readonly key: string;
  readonly partSize: number;
  readonly partCount: number | null;
  readonly sizeBytes: number | null;
  readonly fileName: string | null;
  readonly contentType: string | null;
  status: string;
  statusMessage: string | null;
  readonly expiresAt: string;
  completionRequestedAt: string | null;
  endedAt: string | null;
  version: bigint;
  readonly createdAt: string;
  updatedAt: string;
}

/** Whether the row is live (not a tombstone). */
export function isLive(object: FoldedObject): boolean {
  return object.deletedAt === null;
}

/** In its parent's extent: a ready, live item (`in_extent` of the move and delete statements). */
export function inExtent(object: FoldedObject): boolean {
  return object.kind === 'item' && object.status === 'ready' && object.deletedAt === null;
}
