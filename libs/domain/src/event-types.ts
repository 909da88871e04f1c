import type { IdentityEvent, UserEvent } from './identity/events.js';
import type { PortalObjectEvent } from './portal-object/events.js';
import type { StructureEvent } from './structure/events.js';

/** Every event the domain appends: the one union each consumer's handling is checked against. */
export type KnownEvent = PortalObjectEvent | IdentityEvent | StructureEvent;
export type EventType = KnownEvent['type'];

/**
 * Which kind of stream an event type belongs to: a portal object's (`catalog-`, `collection-`,
 * `item-`), an organization's (`org-`), a user's (`user-`), or the per-organization structure stream
 * that serializes moves and deletes (bookkeeping, not a change of its own).
 */
export type EventFamily = 'portal-object' | 'organization' | 'user' | 'structure';

/**
 * The one list of event types. Consumers that must handle every type (read models, the audit trail,
 * webhooks, the change feed) declare their handling as `satisfies Record<EventType, …>` or switch over
 * `KnownEvent` with a `never` default, so a type added here is a compile error wherever it is not
 * handled yet (`event-types.type-test.ts` proves it).
 */
export const eventFamilies = {
  CatalogCreated: 'portal-object',
  CollectionCreated: 'portal-object',
  PortalObjectUpdated: 'portal-object',
  PortalObjectMoved: 'portal-object',
  PortalObjectDeleted: 'portal-object',
  VisibilityChanged: 'portal-object',
  ObjectShared: 'portal-object',
  ObjectUnshared: 'portal-object',
  ItemUploadStarted: 'portal-object',
  ItemRegistered: 'portal-object',
  UploadCompletionRequested: 'portal-object',
  AssetAttached: 'portal-object',
  UploadCompleted: 'portal-object',
  UploadFailed: 'portal-object',
  UploadAborted: 'portal-object',
  UploadExpired: 'portal-object',
  UserRegistered: 'user',
  UserDisabled: 'user',
  OrganizationCreated: 'organization',
  MemberAdded: 'organization',
  MemberInvited: 'organization',
  InvitationCancelled: 'organization',
  MemberRoleChanged: 'organization',
  MemberRemoved: 'organization',
  ApiKeyCreated: 'organization',
  ApiKeyRevoked: 'organization',
  WebhookRegistered: 'organization',
  WebhookRemoved: 'organization',
  WebhookDisabled: 'organization',
  WebhookEnabled: 'organization',
  WebhookSecretRotated: 'organization',
  StructureChangeStarted: 'structure',
  StructureChangeDecided: 'structure',
  StructureChangeAbandoned: 'structure',
} as const satisfies Record<EventType, EventFamily>;

// Both ways: the map's family of each type agrees with the union it comes from.
type FamilyOf<F extends EventFamily> = {
  [T in EventType]: (typeof eventFamilies)[T] extends F ? T : never;
}[EventType];
type SameSet<A, B> = [Exclude<A, B> | Exclude<B, A>] extends [never] ? true : never;
const _familiesAgree: [
  SameSet<FamilyOf<'portal-object'>, PortalObjectEvent['type']>,
  SameSet<FamilyOf<'user'>, UserEvent['type']>,
  SameSet<FamilyOf<'organization' | 'user'>, IdentityEvent['type']>,
  SameSet<FamilyOf<'structure'>, StructureEvent['type']>,
] = [true, true, true, true];

/** Every event type, in the order above. */
export const eventTypes: readonly EventType[] = Object.keys(eventFamilies) as EventType[];

const knownTypes: ReadonlySet<string> = new Set(eventTypes);

/** Whether a stored event's type is one the domain appends (events of other writers are not). */
export function isEventType(type: string): type is EventType {
  return knownTypes.has(type);
}

/** The family of a stored event's type, or `null` for a type the domain does not append. */
export function familyOf(type: string): EventFamily | null {
  return isEventType(type) ? eventFamilies[type] : null;
}

/** The types of some families: what a consumer that follows whole families (a read model) takes. */
export function typesOf(...families: readonly EventFamily[]): ReadonlySet<EventType> {
  return new Set(eventTypes.filter((type) => families.includes(eventFamilies[type])));
}

/** The types for which `handling` says `true`: what a consumer follows, from its compile-checked map. */
export function typesWhere(handling: Readonly<Record<EventType, boolean>>): ReadonlySet<EventType> {
  return new Set(eventTypes.filter((type) => handling[type]));
}
