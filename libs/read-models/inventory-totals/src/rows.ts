import type { PortalItemStatus, PortalKind } from '@portal/contracts';

/** A sum of `read.inventory_totals` rows per kind and status. */
export interface BucketRow {
  readonly kind: PortalKind;
  readonly status: PortalItemStatus;
  /** bigints as text. */
  readonly objects: string;
  readonly bytes: string;
}
