import type { SharePrincipal } from '../access/object-access.js';
import type { SharePermission, Visibility } from '../access/roles.js';

/**
 * Commands on who may see and change one object. Whether the caller may give them (the `manage` right)
 * is checked by the command handler before deciding; the decider keeps the object's own rules.
 */
export interface ChangeVisibility {
  readonly type: 'ChangeVisibility';
  readonly data: {
    readonly id: string;
    readonly visibility: Visibility;
    /** An ancestor carries a tombstone (a recursive delete above this object). */
    readonly ancestorDeleted: boolean;
  };
}

/** Gives a share, or changes the permission of the principal's share. */
export interface ShareObject {
  readonly type: 'ShareObject';
  readonly data: {
    readonly id: string;
    readonly principal: SharePrincipal;
    readonly permission: SharePermission;
    /** The user or organization named exists (its stream does), read by the handler. */
    readonly principalExists: boolean;
    /** The user giving the share; `null` when not known (anonymous callers are refused before). */
    readonly sharedBy: string | null;
    readonly ancestorDeleted: boolean;
  };
}

export interface UnshareObject {
  readonly type: 'UnshareObject';
  readonly data: {
    readonly id: string;
    readonly principal: SharePrincipal;
    readonly ancestorDeleted: boolean;
  };
}

export type AccessCommand = ChangeVisibility | ShareObject | UnshareObject;
