import type { Visibility } from '../access/roles.js';
import type { AccessCommand } from './access-commands.js';
import type { PortalObjectChanges } from './events.js';
import type { HrefAssetPatch } from './href-assets.js';
import type { CollectionExtent, Link, PortalKind } from './types.js';

/**
 * What the command handler found about a prospective parent before deciding.
 * Gathered from the event store (the parent's stream and its ancestors'), so the decider stays pure.
 */
export type ParentLookup =
  | { readonly found: false; readonly id: string }
  | {
      readonly found: true;
      readonly id: string;
      readonly kind: PortalKind;
      /** Depth of the parent itself: 1 at root level. */
      readonly depth: number;
      /** Ids from the root level down to the parent's own parent. */
      readonly ancestorIds: readonly string[];
      /** The parent or one of its ancestors carries a tombstone. */
      readonly deleted: boolean;
      /** The parent's organization: a child always belongs to it (`null`: created before identity). */
      readonly orgId: string | null;
    };

/** Who creates an object, as the command handler authenticated them. */
export interface NewObjectAccess {
  /**
   * The creator's active organization, which owns a root-level object. Below a parent the object
   * belongs to the parent's organization instead, whoever creates it.
   */
  readonly orgId: string | null;
  readonly createdBy: string | null;
  /** `org` when not given. */
  readonly visibility?: Visibility;
}

export interface CreateCatalog {
  readonly type: 'CreateCatalog';
  readonly data: {
    readonly id: string;
    readonly title: string;
    readonly description: string;
    readonly links: readonly Link[];
    /** `null` for a root-level catalog. */
    readonly parent: ParentLookup | null;
    readonly access: NewObjectAccess;
  };
}

export interface CreateCollection {
  readonly type: 'CreateCollection';
  readonly data: {
    readonly id: string;
    readonly title: string;
    readonly description: string;
    readonly links: readonly Link[];
    readonly license?: string;
    readonly keywords?: readonly string[];
    readonly extent?: CollectionExtent;
    /** The collection's STAC id, when its client named it (`CollectionCreated.stacId`). */
    readonly stacId?: string;
    readonly parent: ParentLookup | null;
    readonly access: NewObjectAccess;
  };
}

export interface UpdatePortalObject {
  readonly type: 'UpdatePortalObject';
  readonly data: {
    readonly id: string;
    readonly changes: PortalObjectChanges;
    /**
     * An item's assets by href changed key by key (a merge patch); `changes.assets` replaces the whole
     * list instead. Not both.
     */
    readonly assetPatch?: HrefAssetPatch;
    /** An ancestor carries a tombstone (a recursive delete above this object). */
    readonly ancestorDeleted: boolean;
  };
}

export interface MovePortalObject {
  readonly type: 'MovePortalObject';
  readonly data: {
    readonly id: string;
    readonly parent: ParentLookup | null;
    /** Levels below the object (0 for a leaf), read from the tree read model. */
    readonly subtreeHeight: number;
    readonly ancestorDeleted: boolean;
  };
}

export interface DeletePortalObject {
  readonly type: 'DeletePortalObject';
  readonly data: {
    readonly id: string;
    readonly recursive: boolean;
    /** Whether live children exist, read from the tree read model. */
    readonly hasChildren: boolean;
    readonly ancestorDeleted: boolean;
  };
}

export type PortalObjectCommand =
  | CreateCatalog
  | CreateCollection
  | UpdatePortalObject
  | MovePortalObject
  | DeletePortalObject
  | AccessCommand;
