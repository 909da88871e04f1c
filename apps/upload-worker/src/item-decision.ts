import { handleCommand } from '@portal/commands';
import {
  ConcurrencyError,
  DomainError,
  followUpMetadata,
  portalObjectDecider,
  type EventStore,
  type FollowUp,
  type ItemCommand,
  type PortalObjectEvent,
  type Position,
} from '@portal/domain';
import type { LoadedItem } from './item-stream.js';

export interface DecisionDependencies {
  readonly eventStore: EventStore;
  readonly now: () => Date;
  readonly newId: () => string;
}

export interface RecordedDecision {
  /** Empty when the decider found nothing left to record (an earlier attempt already did). */
  readonly events: readonly PortalObjectEvent[];
  readonly position: Position | null;
}

/**
 * Records `command` on the item through the command handler, deciding first on the item as the worker
 * loaded it. A conflict reads the stream again and decides again: the decider answers nothing once an
 * earlier or concurrent attempt recorded the outcome, so a retried job never records anything twice.
 * The worker acts for the system, following up on `cause` (`followUpMetadata`). `DomainError`s of the
 * decider propagate.
 */
export async function decideOnItem(
  deps: DecisionDependencies,
  loaded: LoadedItem,
  command: ItemCommand,
  cause: FollowUp,
): Promise<RecordedDecision> {
  const { events, position } = await handleCommand(
    { store: deps.eventStore, newId: deps.newId },
    {
      streamId: loaded.streamId,
      decider: portalObjectDecider,
      initial: loaded,
      command,
      metadata: followUpMetadata(cause, deps.now()),
    },
  );
  return { events, position };
}

/**
 * `decideOnItem` for clean-ups (aborting an upload): when the decider refuses after a fresh read, a
 * concurrent job or sweep has already ended the upload, and there is nothing left to record.
 */
export async function decideUnlessEnded(
  deps: DecisionDependencies,
  loaded: LoadedItem,
  command: ItemCommand,
  cause: FollowUp,
): Promise<RecordedDecision> {
  try {
    return await decideOnItem(deps, loaded, command, cause);
  } catch (error) {
    if (error instanceof DomainError && !(error instanceof ConcurrencyError)) {
      return { events: [], position: null };
    }
    throw error;
  }
}
