import { typesOf, type IdentityEvent, type RecordedEvent } from '@portal/domain';

/**
 * Every type of the user and organization families, from the domain's one list: a type added there is
 * in `IdentityEvent` too, so the handlers' exhaustive switches do not compile until they apply it.
 */
const identityEventTypes: ReadonlySet<string> = typesOf('user', 'organization');

/**
 * The stored event as the identity event it is, or `null` for a type this read model does not follow.
 * The shape is trusted: only the API's identity commands append these types.
 */
export function asIdentityEvent(recorded: RecordedEvent): IdentityEvent | null {
  if (!identityEventTypes.has(recorded.type)) return null;
  return { type: recorded.type, data: recorded.data } as IdentityEvent;
}
