/** A row of `read.audit_events` as the organization's audit feed reads it, with its actor's display name. */
export interface AuditRow {
  /** bigint as text. */
  readonly seq: string;
  readonly position: string;
  readonly type: string;
  readonly occurred_at: Date;
  readonly actor_id: string | null;
  readonly actor_name: string | null;
  readonly object_id: string | null;
  readonly object_kind: 'catalog' | 'collection' | 'item' | null;
  /** bigint as text. */
  readonly revision: string;
  readonly data: Record<string, unknown>;
  /** `metadata.operator`: the operator behind an admin command's event. */
  readonly operator: string | null;
}

/**
 * The feed reads `read.audit_events` (one row per event, `seq` in commit order: one projector writes
 * at a time, batch after batch) joined with the object's current `read_principals`. The row and the
 * object's read model are written in the same projector transaction, so a change read here is one a
 * GET already shows.
 */
export interface ChangeRow {
  /** INT8 as text (the pool's parser). */
  readonly seq: string;
  readonly position: string;
  readonly type: string;
  readonly object_id: string;
  readonly kind: 'catalog' | 'collection' | 'item';
  readonly revision: string;
  readonly occurred_at: Date;
  readonly actor_id: string | null;
  readonly read_principals: string[];
}
