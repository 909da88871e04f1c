import type { PortalObjectEvent } from '../portal-object/events.js';

/**
 * Structure changes — moves and deletes — are the commands whose rules span several streams: a move
 * must not close a cycle or outgrow the depth bound with a concurrent move, and a delete must not
 * bury a child created or moved in at the same moment. They are serialized per organization through
 * one stream, `structure-<orgId>`, as two-phase operations (docs/decisions.md, "Cross-stream
 * invariants"): `Started` (with an expected revision, so one runs at a time), then either `Decided`
 * (the events to apply to the object's stream, or the refusal) or `Abandoned` (an operation whose
 * process died before deciding). Creates are not serialized: they confirm afterwards that no operation
 * on their ancestors raced them.
 */
export type StructureChange =
  | { readonly type: 'move'; readonly objectId: string; readonly toParentId: string | null }
  | { readonly type: 'delete'; readonly objectIds: readonly string[]; readonly recursive: boolean };

export interface StructureChangeStarted {
  readonly type: 'StructureChangeStarted';
  readonly data: { readonly operationId: string; readonly change: StructureChange };
}

/** An event a decided operation appends to the object's stream; its id makes re-applying it harmless. */
export interface DecidedEvent {
  readonly id: string;
  readonly event: PortalObjectEvent;
}

/** Events to append to one object's stream. */
export interface DecidedAppend {
  readonly streamId: string;
  readonly events: readonly DecidedEvent[];
}

/**
 * What was decided. An applied outcome lists the appends of this organization's objects (a bulk delete
 * may span several organizations: each structure stream records its own part).
 */
export type StructureOutcome =
  | { readonly applied: true; readonly appends: readonly DecidedAppend[] }
  | { readonly applied: false; readonly code: string };

/** Repeats the change, so a reader of the stream's tail knows what was decided without the start. */
export interface StructureChangeDecided {
  readonly type: 'StructureChangeDecided';
  readonly data: {
    readonly operationId: string;
    readonly change: StructureChange;
    readonly outcome: StructureOutcome;
  };
}

export interface StructureChangeAbandoned {
  readonly type: 'StructureChangeAbandoned';
  readonly data: { readonly operationId: string; readonly change: StructureChange; readonly reason: string };
}

export type StructureEvent = StructureChangeStarted | StructureChangeDecided | StructureChangeAbandoned;

export type StructureEventType = StructureEvent['type'];

export const structureEventTypes: readonly StructureEventType[] = [
  'StructureChangeStarted',
  'StructureChangeDecided',
  'StructureChangeAbandoned',
];

const structureStreamPrefix = 'structure-';

/** Objects created before identity belong to no organization; they share one stream. */
export function structureStreamId(orgId: string | null): string {
  return `${structureStreamPrefix}${orgId ?? 'legacy'}`;
}

export function isStructureStream(streamId: string): boolean {
  return streamId.startsWith(structureStreamPrefix);
}
