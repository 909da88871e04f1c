import type { SharePermission, Visibility } from './roles.js';

/** Whom a share names: one user, or every member of one organization. */
export interface SharePrincipal {
  readonly type: 'user' | 'organization';
  readonly id: string;
}

export interface Share {
  readonly principal: SharePrincipal;
  readonly permission: SharePermission;
}

/** The access facts one object's own stream records; ancestors' facts are added by the caller. */
export interface ObjectAccess {
  /** `null` only for objects created before identity existed (schema version 1): public, read-only. */
  readonly orgId: string | null;
  readonly visibility: Visibility;
  /** The user who created it (API keys act as their creator); `null` before identity existed. */
  readonly createdBy: string | null;
  readonly shares: readonly Share[];
}

export const legacyAccess: ObjectAccess = {
  orgId: null,
  visibility: 'public',
  createdBy: null,
  shares: [],
};

export function samePrincipal(a: SharePrincipal, b: SharePrincipal): boolean {
  return a.type === b.type && a.id === b.id;
}
