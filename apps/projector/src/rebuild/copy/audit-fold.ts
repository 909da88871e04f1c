import { isStructureStream, type RecordedEvent } from '@portal/domain';
import { auditSubjectOf, auditValues } from '@portal/read-model-audit';
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
 * The audit row of an event as the audit read model's insert makes it (audit/read-model.ts), read from
 * the object rows right after the event was folded: the object's organization, kind and path, and for a
 * move the path it left. `null` for the structure streams' bookkeeping, which has no row.
 */
export function auditRow(
  recorded: RecordedEvent,
  objects: ReadonlyMap<string, FoldedObject>,
  pathOf: (object: FoldedObject) => readonly string[],
): CopyValue[] | null {
  if (isStructureStream(recorded.streamId)) return null;
  const subject = auditSubjectOf(recorded);
  const values = auditValues(recorded, subject).slice(0, 11) as (string | null)[];
  const object = subject.objectId === null ? undefined : objects.get(subject.objectId);
  const former = subject.formerParentId === null ? undefined : objects.get(subject.formerParentId);
  const ancestors = object === undefined ? [] : pathOf(object);
  const left = former === undefined ? [] : [...pathOf(former), former.id];
  const path = [...ancestors, ...left.filter((id) => !ancestors.includes(id))];
  // COALESCE(o.org_id, $7): the object's organization, else the organization's own events' one.
  values[6] = object?.orgId ?? values[6] ?? null;
  return [...values, object?.kind ?? null, textArray(path)];
}
