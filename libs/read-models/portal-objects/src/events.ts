import { typesOf, type PortalObjectEvent, type RecordedEvent } from '@portal/domain';

/**
 * Every type of the portal-object family, from the domain's one list: a type added there is in
 * `PortalObjectEvent` too, so the handlers' exhaustive switches do not compile until they apply it.
 */
const portalObjectEventTypes: ReadonlySet<string> = typesOf('portal-object');

/**
 * The stored event as the domain event it is, or `null` for a type this read model does not follow
 * (organizations, users). The shape is trusted: only the domain's deciders append these types, and the
 * event store adapters upcast older shapes on read (`upcastRecordedEvent`: a create from before identity
 * arrives with its access facts).
 */
export function asPortalObjectEvent(recorded: RecordedEvent): PortalObjectEvent | null {
  if (!portalObjectEventTypes.has(recorded.type)) return null;
  return { type: recorded.type, data: recorded.data } as PortalObjectEvent;
}
