import type { Share, SharePrincipal } from '../access/object-access.js';
import type { SharePermission, Visibility } from '../access/roles.js';
import type { HrefAsset } from './href-assets.js';
import type { ItemEvent, ItemMetadata } from './item-events.js';
import type { CollectionExtent, Link, PortalKind } from './types.js';

/**
 * Who owns a new object and who may see it; part of every create event since schema version 2.
 * Version 1 events are upcast on read (`upcastPortalObjectEvent`): no organization, public, no creator.
 */
export interface CreatedAccess {
  /** The parent's organization, or the creator's active one at root level; never changes. */
  readonly orgId: string | null;
  readonly visibility: Visibility;
  readonly createdBy: string | null;
}

export interface CatalogCreated {
  readonly type: 'CatalogCreated';
  readonly data: {
    readonly id: string;
    readonly title: string;
    readonly description: string;
    readonly parentId: string | null;
    readonly links: readonly Link[];
  } & CreatedAccess;
}

export interface CollectionCreated {
  readonly type: 'CollectionCreated';
  readonly data: {
    readonly id: string;
    readonly title: string;
    readonly description: string;
    readonly parentId: string | null;
    readonly links: readonly Link[];
    readonly license: string;
    readonly keywords: readonly string[];
    /** Given on create; `null` means the projector computes it from the ready items below. */
    readonly extent: CollectionExtent | null;
    /**
     * The collection's STAC id, when its client named it (`sentinel-2-l2a`: docs/stac.md, "Collection
     * ids"): unique among the portal's live collections, its `id` and path in the STAC API.
     */
    readonly stacId?: string;
  } & CreatedAccess;
}

/** The fields a client may change after creation; which apply depends on the kind. */
export interface PortalObjectChanges {
  readonly title?: string;
  /** `null` only as a previous value: an item may have been created without a description. */
  readonly description?: string | null;
  readonly links?: readonly Link[];
  readonly license?: string;
  readonly keywords?: readonly string[];
  readonly extent?: CollectionExtent | null;
  /** An item's assets registered by href: the whole list, as `links` (uploaded files are not in it). */
  readonly assets?: readonly HrefAsset[];
  /** An item's geometry, bbox, time, tags and properties: the whole metadata, as on create. */
  readonly metadata?: ItemMetadata;
}

export interface PortalObjectUpdated {
  readonly type: 'PortalObjectUpdated';
  readonly data: {
    readonly id: string;
    readonly kind: PortalKind;
    /** Only the fields that changed, with their new values. */
    readonly changes: PortalObjectChanges;
    /** The same fields with the values they had before, so an auditor sees both sides. */
    readonly previous: PortalObjectChanges;
  };
}

export interface PortalObjectMoved {
  readonly type: 'PortalObjectMoved';
  readonly data: {
    readonly id: string;
    readonly kind: PortalKind;
    readonly fromParentId: string | null;
    readonly toParentId: string | null;
  };
}

/**
 * A tombstone. With `recursive`, the whole subtree is gone: descendants get no event of their own,
 * the projector tombstones them, and commands on them fail because an ancestor is deleted.
 */
export interface PortalObjectDeleted {
  readonly type: 'PortalObjectDeleted';
  readonly data: {
    readonly id: string;
    readonly kind: PortalKind;
    readonly recursive: boolean;
  };
}

export interface VisibilityChanged {
  readonly type: 'VisibilityChanged';
  readonly data: {
    readonly id: string;
    readonly kind: PortalKind;
    readonly from: Visibility;
    readonly to: Visibility;
  };
}

/** A share given, or its permission changed (a second share to the same principal replaces the first). */
export interface ObjectShared {
  readonly type: 'ObjectShared';
  readonly data: {
    readonly id: string;
    readonly kind: PortalKind;
    readonly principal: SharePrincipal;
    readonly permission: SharePermission;
    /** The share it replaced, if any. */
    readonly previous: Share | null;
  };
}

export interface ObjectUnshared {
  readonly type: 'ObjectUnshared';
  readonly data: {
    readonly id: string;
    readonly kind: PortalKind;
    readonly principal: SharePrincipal;
    readonly permission: SharePermission;
  };
}

export type AccessEvent = VisibilityChanged | ObjectShared | ObjectUnshared;

export type PortalObjectEvent =
  | CatalogCreated
  | CollectionCreated
  | PortalObjectUpdated
  | PortalObjectMoved
  | PortalObjectDeleted
  | AccessEvent
  | ItemEvent;

export type PortalObjectEventType = PortalObjectEvent['type'];
