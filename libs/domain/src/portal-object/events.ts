import type { ItemEvent } from './item-events.js';
import type { CollectionExtent, Link, PortalKind } from './types.js';

export interface CatalogCreated {
  readonly type: 'CatalogCreated';
  readonly data: {
    readonly id: string;
    readonly title: string;
    readonly description: string;
    readonly parentId: string | null;
    readonly links: readonly Link[];
  };
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
  };
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

export type PortalObjectEvent =
  | CatalogCreated
  | CollectionCreated
  | PortalObjectUpdated
  | PortalObjectMoved
  | PortalObjectDeleted
  | ItemEvent;

export type PortalObjectEventType = PortalObjectEvent['type'];
