import { familyOf, formatPosition, isUuid, type EventFamily, type RecordedEvent } from '@portal/domain';

function uuidOrNull(value: unknown): string | null {
  return isUuid(value) ? value : null;
}

function field(data: unknown, name: string): unknown {
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[name] : undefined;
}

/** What the audit row of an event names directly; the object's organization and place come from its row. */
export interface AuditSubject {
  /** The portal object the event is about, or `null` for identity events. */
  readonly objectId: string | null;
  /** The organization of an organization's own events (members, invitations, API keys). */
  readonly orgId: string | null;
  /**
   * The parent a move took the object away from: its subtree saw the object leave, so the move's
   * ancestors are the old path's and the new path's (see audit-run.ts).
   */
  readonly formerParentId: string | null;
}

/**
 * Portal object events name their object as `data.id` (streams `catalog-`, `collection-`, `item-`);
 * organization events name theirs as `data.orgId` (stream `org-`); user events name neither. By the
 * event's family in the domain's one list, so a new family does not compile until it is placed here;
 * a type the domain does not append (another writer's) is placed by its stream.
 */
export function auditSubjectOf(recorded: RecordedEvent): AuditSubject {
  const family = familyOf(recorded.type) ?? familyOfStream(recorded.streamId);
  switch (family) {
    case 'portal-object': {
      const formerParentId =
        recorded.type === 'PortalObjectMoved' ? uuidOrNull(field(recorded.data, 'fromParentId')) : null;
      return { objectId: uuidOrNull(field(recorded.data, 'id')), orgId: null, formerParentId };
    }
    case 'organization':
      return { objectId: null, orgId: uuidOrNull(field(recorded.data, 'orgId')), formerParentId: null };
    case 'user':
    case 'structure':
    case null:
      return { objectId: null, orgId: null, formerParentId: null };
    default:
      return exhausted(family);
  }
}

function familyOfStream(streamId: string): EventFamily | null {
  if (/^(catalog|collection|item)-/.test(streamId)) return 'portal-object';
  if (streamId.startsWith('org-')) return 'organization';
  return null;
}

function exhausted(family: never): never {
  throw new Error(`unhandled event family ${String(family)}`);
}

/** The parameters `$1`–`$12` of the audit insert (audit-run.ts), in order. */
export function auditValues(recorded: RecordedEvent, subject: AuditSubject): unknown[] {
  return [
    recorded.id,
    formatPosition(recorded.position),
    recorded.streamId,
    recorded.revision.toString(),
    recorded.type,
    subject.objectId,
    subject.orgId,
    uuidOrNull(recorded.metadata.actorId),
    recorded.metadata.occurredAt,
    JSON.stringify(recorded.data),
    JSON.stringify(recorded.metadata),
    subject.formerParentId,
  ];
}
