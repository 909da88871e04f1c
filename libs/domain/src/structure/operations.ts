import type { EventMetadata } from '../metadata.js';
import type { RecordedEvent } from '../event-store.js';
import type { StructureChange, StructureEvent, StructureOutcome } from './events.js';

/** Where one operation of a structure stream stands, as the stream's events (or its tail) tell it. */
export type OperationState =
  | { readonly status: 'pending' }
  | {
      readonly status: 'decided';
      readonly outcome: StructureOutcome;
      /** The decision's metadata: the applied events are appended with it, whoever applies them. */
      readonly metadata: EventMetadata;
    }
  | { readonly status: 'abandoned' };

export interface StructureOperation {
  readonly operationId: string;
  readonly change: StructureChange;
  /** Revision of the operation's newest event in the structure stream. */
  readonly revision: bigint;
  /** When it started, as its own process's clock said; `null` when the tail began after its start. */
  readonly startedAt: string | null;
  readonly state: OperationState;
}

/**
 * The operations a run of structure events tells about, in order. The run may begin anywhere in the
 * stream (a tail): an operation whose start lies before it is known by its decision or abandonment,
 * which repeat the change.
 */
export function foldOperations(events: readonly RecordedEvent[]): StructureOperation[] {
  const operations = new Map<string, StructureOperation>();
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as StructureEvent;
    const { operationId, change } = event.data;
    const known = operations.get(operationId);
    const base = { operationId, change, revision: recorded.revision, startedAt: known?.startedAt ?? null };
    switch (event.type) {
      case 'StructureChangeStarted':
        operations.set(operationId, {
          ...base,
          startedAt: recorded.metadata.occurredAt,
          state: { status: 'pending' },
        });
        break;
      case 'StructureChangeDecided':
        operations.set(operationId, {
          ...base,
          state: { status: 'decided', outcome: event.data.outcome, metadata: recorded.metadata },
        });
        break;
      case 'StructureChangeAbandoned':
        operations.set(operationId, { ...base, state: { status: 'abandoned' } });
        break;
      default:
        return unknownEvent(event);
    }
  }
  return [...operations.values()];
}

function unknownEvent(event: never): never {
  throw new Error(`not a structure event: ${JSON.stringify(event)}`);
}

/** The objects whose place or life a change alters: the moved one, or the deleted ones. */
export function changedObjects(change: StructureChange): readonly string[] {
  return change.type === 'move' ? [change.objectId] : change.objectIds;
}

export function touchesAny(operation: StructureOperation, objectIds: ReadonlySet<string>): boolean {
  return changedObjects(operation.change).some((id) => objectIds.has(id));
}
