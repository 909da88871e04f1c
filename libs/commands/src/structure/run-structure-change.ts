import {
  ConcurrencyError,
  DomainError,
  comparePositions,
  structureStreamId,
  type DecidedAppend,
  type EventMetadata,
  type PortalObjectEvent,
  type Position,
  type StructureChange,
  type StructureEvent,
  type StructureOutcome,
} from '@portal/domain';
import type { CommandContext } from '../command-context.js';
import { applyDecided } from './apply-decided.js';
import { settle } from './settle.js';

/** What a structure operation decided for one object: the events for its stream, and its organization. */
export interface ObjectDecision {
  readonly orgId: string | null;
  readonly streamId: string;
  readonly events: readonly PortalObjectEvent[];
}

export interface StructureRequest {
  readonly change: StructureChange;
  /** The organizations of the objects the change touches: their structure streams are held. */
  readonly orgIds: readonly (string | null)[];
  readonly metadata: EventMetadata;
  /**
   * Whether `decide` reads the tree read model (children, subtree): then it runs only once the read
   * model includes every write acknowledged before the operation started. Deleting items needs nothing
   * of it (items hold no children).
   */
  readonly needsTree: boolean;
  /**
   * Checks every rule and decides, reading the event store and the tree read model; runs while the
   * organization's structure stream is held and the read model includes every earlier write. Throws the
   * refusal.
   */
  readonly decide: () => Promise<readonly ObjectDecision[]>;
}

export interface StructureResult {
  /** Position of the newest event written to an object's stream; `null` when nothing changed. */
  readonly position: Position | null;
  /** The revision each changed stream is at now. */
  readonly revisions: ReadonlyMap<string, bigint>;
}

interface Holding {
  readonly operationId: string;
  readonly held: readonly Held[];
}

interface Held {
  readonly streamId: string;
  /** Revision of this operation's `Started` event in the structure stream. */
  readonly revision: bigint;
}

/**
 * Runs a move or a delete as one operation of its organization's structure stream (docs/decisions.md,
 * "Cross-stream invariants"). `Started` is appended with the stream's revision as the expected one, so
 * operations of an organization run one at a time on every event-store adapter. Only then does it
 * wait for the read model to include every acknowledged write and decide: a create that did not see
 * the `Started` committed before it, so its object is in what the rules read. The decision is recorded
 * (`Decided`, again with the expected revision) before it is applied, so a crash in between leaves
 * work any later command finishes, never a half-made change.
 */
export async function runStructureChange(
  context: CommandContext,
  request: StructureRequest,
): Promise<StructureResult> {
  const streams = [...new Set(request.orgIds.map(structureStreamId))].sort();
  const deadline = context.now().getTime() + context.structure.waitMs;
  const event: EventOf = (data) => ({
    id: context.newId(),
    type: data.type,
    data: data.data,
    metadata: { ...request.metadata, occurredAt: context.now().toISOString() },
  });

  let holding: Holding | null = null;
  while (holding === null) {
    if (context.now().getTime() > deadline) throw busy();
    holding = await hold(context, streams, request, deadline, event);
  }
  const { operationId, held } = holding;

  let decisions: readonly ObjectDecision[];
  try {
    if (request.needsTree) await context.tree.awaitCommitted();
    decisions = await request.decide();
  } catch (error) {
    const code = error instanceof DomainError ? error.code : 'FAILED';
    await recordBestEffort(context, held, () =>
      event({
        type: 'StructureChangeDecided',
        data: { operationId, change: request.change, outcome: { applied: false, code } },
      }),
    );
    throw error;
  }

  const appends = decisions
    .filter((decision) => decision.events.length > 0)
    .map((decision) => ({
      orgStream: structureStreamId(decision.orgId),
      append: {
        streamId: decision.streamId,
        events: decision.events.map((decided) => ({ id: context.newId(), event: decided })),
      } satisfies DecidedAppend,
    }));
  for (const [index, { streamId, revision }] of held.entries()) {
    const outcome: StructureOutcome = {
      applied: true,
      appends: appends.filter((entry) => entry.orgStream === streamId).map((entry) => entry.append),
    };
    try {
      await context.store.append(
        streamId,
        [event({ type: 'StructureChangeDecided', data: { operationId, change: request.change, outcome } })],
        { expectedRevision: revision },
      );
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      // Taken for dead and abandoned: this operation ran longer than `abandonAfterMs`.
      throw new DomainError(
        'BUSY',
        index === 0
          ? 'the change took too long and was abandoned; nothing was changed, retry'
          : 'the change took too long and was only partly made; read the objects again and retry what is missing',
      );
    }
  }

  let position: Position | null = null;
  const revisions = new Map<string, bigint>();
  for (const { append } of appends) {
    const applied = await applyDecided(context.store, append, request.metadata);
    if (applied && (position === null || comparePositions(applied, position) > 0)) position = applied;
    const revision = await context.store.streamRevision(append.streamId);
    if (revision !== null) revisions.set(append.streamId, revision);
  }
  return { position, revisions };
}

type EventOf = (data: StructureEvent) => {
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
};

/**
 * Appends `Started` to every structure stream the operation needs, in a fixed order (so two operations
 * spanning the same organizations never wait on each other in a circle), each after settling the
 * stream. `null` when another operation got in first: what was held is let go, and the caller tries again.
 */
async function hold(
  context: CommandContext,
  streams: readonly string[],
  request: StructureRequest,
  deadline: number,
  event: EventOf,
): Promise<Holding | null> {
  const operationId = context.newId();
  const held: Held[] = [];
  for (const streamId of streams) {
    const revision = await settle(context, streamId, { deadline }, request.metadata);
    try {
      const result = await context.store.append(
        streamId,
        [event({ type: 'StructureChangeStarted', data: { operationId, change: request.change } })],
        { expectedRevision: revision ?? 'no_stream' },
      );
      held.push({ streamId, revision: result.nextRevision });
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      await recordBestEffort(context, held, () =>
        event({
          type: 'StructureChangeAbandoned',
          data: { operationId, change: request.change, reason: 'another change got in first; retried' },
        }),
      );
      return null;
    }
  }
  return { operationId, held };
}

function busy(): DomainError {
  return new DomainError('BUSY', 'other moves or deletes in this organization kept getting in first; retry');
}

/** Ends this operation in every stream it holds; a stream where someone abandoned it already is left. */
async function recordBestEffort(
  context: CommandContext,
  held: readonly Held[],
  eventFor: () => ReturnType<EventOf>,
): Promise<void> {
  for (const { streamId, revision } of held) {
    await context.store
      .append(streamId, [eventFor()], { expectedRevision: revision })
      .catch((error: unknown) => {
        if (!(error instanceof ConcurrencyError)) throw error;
      });
  }
}
