import { formatPosition, isStructureStream, isUuid, type RecordedEvent } from '@portal/domain';
import { auditSubjectOf } from '@portal/read-model-audit';
import { textArray, type CopyValue } from './copy-text.js';
import type { FoldedObject } from './folded-object.js';

/** The columns of `audit_events` the fold writes (`seq` numbers them in the order they are copied). */
export const auditColumns = [
  'event_id',
  'position',
  'stream_id',
  'revision',
  'type',
  'object_id',
  'org_id',
  'actor_id',
  'occurred_at',
  'data',
  'metadata',
  'object_kind',
  'ancestor_ids',
] as const;

/**
 * The audit row of an event as the audit read model's insert makes it (audit/audit-run.ts, with the
 * parameters of `auditValues`), read from the object rows right after the event was folded: the
 * object's organization, kind and path, and for a move the path it left. The data and metadata go out
 * as the store's own JSON text when it kept it (it parses to the same `jsonb` as the text the SQL path
 * prints from what it parsed), else printed as the SQL path prints them. `null` for the structure
 * streams' bookkeeping, which has no row.
 */
export function auditRow(
  recorded: RecordedEvent,
  objects: ReadonlyMap<string, FoldedObject>,
  pathOf: (object: FoldedObject) => readonly string[],
): CopyValue[] | null {
  if (isStructureStream(recorded.streamId)) return null;
  const subject = auditSubjectOf(recorded);
  const object = subject.objectId === null ? undefined : objects.get(subject.objectId);
  const former = subject.formerParentId === null ? undefined : objects.get(subject.formerParentId);
  const ancestors = object === undefined ? [] : pathOf(object);
  const left = former === undefined ? [] : [...pathOf(former), former.id];
  const path =
    left.length === 0 ? ancestors : [...ancestors, ...left.filter((id) => !ancestors.includes(id))];
  const { actorId } = recorded.metadata;
  return [
    recorded.id,
    formatPosition(recorded.position),
    recorded.streamId,
    recorded.revision.toString(),
    recorded.type,
    subject.objectId,
    // COALESCE(o.org_id, $7): the object's organization, else the organization's own events' one.
    object?.orgId ?? subject.orgId,
    isUuid(actorId) ? actorId : null,
    recorded.metadata.occurredAt,
    recorded.storedJson?.data ?? JSON.stringify(recorded.data),
    recorded.storedJson?.metadata ?? JSON.stringify(recorded.metadata),
    object?.kind ?? null,
    textArray(path),
  ];
}
