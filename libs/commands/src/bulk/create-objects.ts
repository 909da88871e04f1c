import {
  ConcurrencyError,
  DomainError,
  portalObjectDecider,
  streamIdOf,
  type Caller,
  type EventMetadata,
  type ItemCommand,
  type PortalKind,
  type PortalObjectCommand,
  type Position,
  type StreamAppend,
} from '@portal/domain';
import type { CommandContext } from '../command-context.js';
import {
  confirmCreatedTogether,
  prepareCreate,
  type CreatedWith,
  type CreatePlacement,
} from '../create-object.js';
import type { FoundParent } from '../object-repository.js';
import { requireCreateRights } from '../object-permissions.js';
import { appendAll } from './append-all.js';
import { mapLimited, settle, type Settled } from './map-limited.js';

/** A create command under a fresh id, and what its writer made for it (an item's upload). */
export interface NewObjectCommand<Made> {
  readonly made: Made;
  readonly command: PortalObjectCommand | ItemCommand;
}

/** One create of `createObjects`. */
export interface CreateEntry<Made extends { readonly id: string }> {
  readonly kind: PortalKind;
  readonly parentId: string | null;
  readonly caller: Caller;
  readonly metadata: EventMetadata;
  /** Runs once the caller may create there: the command, deciding on its own what the rules cannot. */
  readonly make: (parent: FoundParent | null) => Promise<NewObjectCommand<Made>>;
  /** The create surely wrote nothing: take back what `make` opened (handling its own failures). */
  readonly undo?: (made: Made) => Promise<void>;
}

export type CreateOutcome<Made> =
  | { readonly ok: true; readonly made: Made; readonly position: Position; readonly revision: bigint }
  | { readonly ok: false; readonly error: Error };

/** Parent lookups and `make`s in flight at once (each a few reads of the event store, or one of S3). */
const CONCURRENCY = 8;

interface Decided<Made> {
  readonly made: Made;
  readonly placement: CreatePlacement;
  readonly append: StreamAppend;
}

/**
 * Several creates with the rules of `createObject`, appended together: every entry is decided first
 * (each distinct parent read once), then all decided ones go to the event store in one `appendMany`,
 * then each parent's structure stream is looked at once to confirm that no move or delete raced them
 * (docs/cross-stream-invariants.md). A refused entry never holds back the others; outcomes come in the
 * order of `entries`. The entries must not depend on each other: none may be the parent of another.
 */
export async function createObjects<Made extends { readonly id: string }>(
  context: CommandContext,
  entries: readonly CreateEntry<Made>[],
): Promise<CreateOutcome<Made>[]> {
  const placements = new Map<string | null, Promise<Settled<CreatePlacement>>>();
  const placementOf = async (parentId: string | null): Promise<CreatePlacement> => {
    let placement = placements.get(parentId);
    if (!placement) {
      placement = settle(() => prepareCreate(context, parentId));
      placements.set(parentId, placement);
    }
    const settled = await placement;
    if (!settled.ok) throw settled.error;
    return settled.value;
  };
  const decided = await mapLimited(entries, CONCURRENCY, (entry) =>
    settle(() => decideCreate(context, entry, placementOf)),
  );
  const outcomes: CreateOutcome<Made>[] = decided.map((settled) =>
    settled.ok ? { ok: false, error: new Error('not appended') } : settled,
  );
  // Two entries can decide on one stream: items of one STAC name in one parent get one derived id. The
  // first is appended; the later ones are refused as a single create of that name would be.
  const toAppend: (Decided<Made> & { readonly index: number })[] = [];
  const streams = new Set<string>();
  for (const [index, settled] of decided.entries()) {
    if (!settled.ok) continue;
    if (streams.has(settled.value.append.streamId)) {
      const entry = entries[index] as CreateEntry<Made>;
      outcomes[index] = {
        ok: false,
        error: await refused(entry, settled.value.made, sameObjectTwice(entry.kind)),
      };
      continue;
    }
    streams.add(settled.value.append.streamId);
    toAppend.push({ index, ...settled.value });
  }
  const appended = await appendAll(
    context,
    toAppend.map(({ append }) => append),
  );
  const confirmGroups = new Map<CreatePlacement, { index: number; with: CreatedWith }[]>();
  for (const [position, { index, made, placement, append }] of toAppend.entries()) {
    const outcome = appended[position] ?? { ok: false, error: new Error('no append outcome') };
    const entry = entries[index] as CreateEntry<Made>;
    if (!outcome.ok) {
      outcomes[index] = { ok: false, error: await refused(entry, made, outcome.error) };
      continue;
    }
    const { result } = outcome;
    outcomes[index] = { ok: true, made, position: result.position, revision: result.nextRevision };
    const group = confirmGroups.get(placement) ?? [];
    group.push({
      index,
      with: {
        created: { id: made.id, kind: entry.kind, streamId: append.streamId },
        metadata: entry.metadata,
      },
    });
    confirmGroups.set(placement, group);
  }
  await mapLimited([...confirmGroups], CONCURRENCY, async ([placement, group]) => {
    const refusals = await confirmCreatedTogether(
      context,
      placement,
      group.map((member) => member.with),
    );
    for (const [position, refusal] of refusals.entries()) {
      const member = group[position];
      if (refusal && member) outcomes[member.index] = { ok: false, error: refusal };
    }
  });
  return outcomes;
}

async function decideCreate<Made extends { readonly id: string }>(
  context: CommandContext,
  entry: CreateEntry<Made>,
  placementOf: (parentId: string | null) => Promise<CreatePlacement>,
): Promise<Decided<Made>> {
  const placement = await placementOf(entry.parentId);
  requireCreateRights(entry.caller, entry.kind, placement.parent);
  const { made, command } = await entry.make(placement.parent);
  let events;
  try {
    events = portalObjectDecider.decide(command, portalObjectDecider.initialState);
  } catch (error) {
    await entry.undo?.(made);
    throw error;
  }
  const { metadata } = entry;
  return {
    made,
    placement,
    append: {
      streamId: streamIdOf(entry.kind, made.id),
      events: events.map((event) => ({ id: context.newId(), type: event.type, data: event.data, metadata })),
      expectedRevision: 'no_stream',
    },
  };
}

/** Two commands of one request on one new stream: only names (`stacId`) make that happen. */
function sameObjectTwice(kind: PortalKind): DomainError {
  const same =
    kind === 'collection'
      ? 'a collection of the same stacId'
      : 'an item of the same stacId in the same parent';
  return new DomainError(
    'ALREADY_EXISTS',
    `it exists already: an earlier command of this request creates it (${same})`,
  );
}

/**
 * A refused append: the stream of a fresh id existing already is `ALREADY_EXISTS`, as for a single
 * create. Only a refusal (surely nothing written) undoes what `make` opened; after a lost connection
 * the append may have committed, and the object would keep a dead upload.
 */
async function refused<Made extends { readonly id: string }>(
  entry: CreateEntry<Made>,
  made: Made,
  error: Error,
): Promise<Error> {
  const refusal =
    error instanceof ConcurrencyError
      ? new DomainError('ALREADY_EXISTS', 'it exists already: another request created it at the same moment')
      : error;
  if (refusal instanceof DomainError) await entry.undo?.(made);
  return refusal;
}
