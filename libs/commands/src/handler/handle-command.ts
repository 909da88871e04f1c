import { setTimeout as delay } from 'node:timers/promises';
import {
  ConcurrencyError,
  DomainError,
  type Decider,
  type DomainEvent,
  type EventMetadata,
  type EventStore,
  type Position,
} from '@portal/domain';
import { changedSince, requireRevision } from './expected-revision.js';
import { loadStream, type LoadedStream } from './load-stream.js';
import { validationSpan, type Decision } from './validation-span.js';
import { jitteredRetry, type RetryPolicy } from './retry-policy.js';

/** What the handler needs of its writer: the store, fresh event ids, and (for tests) a retry policy. */
export interface CommandHandling {
  readonly store: EventStore;
  readonly newId: () => string;
  readonly retry?: RetryPolicy;
}

/** Builds the command from the stream as read, on every attempt: rights and outside facts are checked here. */
export type CommandFactory<Command, State> = (stream: LoadedStream<State>) => Command | Promise<Command>;

/**
 * Work outside the event store that the events announce (a row the API reads them with): `apply` runs
 * once the decision has events, right before they are appended; `undo` runs when that append fails, so
 * nothing outlives a refused or lost command. A retry applies it again.
 */
export interface SideEffect<Event> {
  readonly apply: (events: readonly Event[]) => Promise<void>;
  readonly undo?: () => Promise<void>;
}

export interface CommandRequest<Command, Event extends DomainEvent, State> {
  readonly streamId: string;
  readonly decider: Decider<Command, Event, State>;
  /** The command, or how to make it from the stream as read (throwing the refusal of a check). */
  readonly command: Command | CommandFactory<Command, State>;
  /** Recorded beside every event appended. */
  readonly metadata: EventMetadata;
  /**
   * A revision the caller read (`If-Match`): the stream must still be there, else `STALE_REVISION`, and
   * nothing is retried. `no_stream`: the command creates the stream under a fresh id, so it is decided on
   * the initial state without a read; should the stream exist after all, `ALREADY_EXISTS`. Left out, a
   * concurrent append is met by reading again and deciding again, as the retry policy allows.
   */
  readonly expectedRevision?: bigint | 'no_stream';
  /** The stream as the caller already read it: the first attempt decides on it without reading again. */
  readonly initial?: LoadedStream<State>;
  readonly sideEffect?: SideEffect<Event>;
}

export interface CommandResult<Event, State> {
  /** What was appended; empty when the decider found nothing to change. */
  readonly events: readonly Event[];
  /** The stream as the decision saw it. */
  readonly before: LoadedStream<State>;
  /** The state with the new events. */
  readonly state: State;
  /** The stream's revision after the command; `null` when it still does not exist. */
  readonly revision: bigint | null;
  /** Position of the last event appended; `null` when none was. */
  readonly position: Position | null;
}

const once: RetryPolicy = { attempts: 1, pauseMs: () => 0 };

/**
 * The one command path of the service: load the stream, fold it with the decider, decide, append what
 * was decided with the revision read as the expected one (docs/decisions.md, "Command handling").
 * Refusals are `DomainError`s with stable codes, which the HTTP layer maps to answers:
 *
 * - the decider's own (`NOT_FOUND`, `NOT_EMPTY`, …) and those of the command factory pass through;
 * - an expected revision that no longer holds: `STALE_REVISION`, before deciding or at the append;
 * - a stream created meanwhile under a `no_stream` command: `ALREADY_EXISTS`;
 * - without an expected revision, a concurrent append is no refusal: the command is decided again on
 *   a fresh read. Only when every attempt of the policy lost does the `ConcurrencyError` come out
 *   (`CONCURRENCY_CONFLICT`, which the HTTP layer answers without internals, with `Retry-After`).
 */
export async function handleCommand<Command, Event extends DomainEvent, State>(
  handling: CommandHandling,
  request: CommandRequest<Command, Event, State>,
): Promise<CommandResult<Event, State>> {
  const { expectedRevision } = request;
  const policy = expectedRevision === undefined ? (handling.retry ?? jitteredRetry) : once;
  let known = request.initial;
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await decideAndAppend(handling, request, known, attempt);
    if (!(outcome instanceof ConcurrencyError)) return outcome;
    if (expectedRevision === 'no_stream') {
      throw new DomainError(
        'ALREADY_EXISTS',
        'it exists already: another request created it at the same moment',
      );
    }
    if (expectedRevision !== undefined) throw changedSince(expectedRevision);
    if (attempt >= policy.attempts) throw outcome;
    await delay(policy.pauseMs(attempt));
    known = undefined;
  }
}

function load<Command, Event extends DomainEvent, State>(
  store: EventStore,
  request: CommandRequest<Command, Event, State>,
): Promise<LoadedStream<State>> | LoadedStream<State> {
  const { streamId, decider } = request;
  if (request.expectedRevision !== 'no_stream') return loadStream(store, streamId, decider);
  return { streamId, events: [], state: decider.initialState, revision: null };
}

/**
 * Whether the command holds, and what it decides: the stream as read (loaded now unless `known`), the
 * command made from it (rights and outside facts), the expected revision, the decider's verdict.
 */
async function decide<Command, Event extends DomainEvent, State>(
  store: EventStore,
  request: CommandRequest<Command, Event, State>,
  known: LoadedStream<State> | undefined,
): Promise<Decision<Command, Event, State>> {
  const stream = known ?? (await load(store, request));
  const command = await commandFor(request.command, stream);
  if (typeof request.expectedRevision === 'bigint')
    requireRevision(request.expectedRevision, stream.revision);
  return { stream, command, events: request.decider.decide(command, stream.state) };
}

/** One attempt; the `ConcurrencyError` of a lost append is returned, for the caller to retry or refuse. */
async function decideAndAppend<Command, Event extends DomainEvent, State>(
  handling: CommandHandling,
  request: CommandRequest<Command, Event, State>,
  known: LoadedStream<State> | undefined,
  attempt: number,
): Promise<CommandResult<Event, State> | ConcurrencyError> {
  const { streamId, decider, metadata, sideEffect } = request;
  const { stream, events } = await validationSpan(streamId, attempt, () =>
    decide(handling.store, request, known),
  );
  if (events.length === 0) {
    return { events, before: stream, state: stream.state, revision: stream.revision, position: null };
  }
  await sideEffect?.apply(events);
  try {
    const appended = await handling.store.append(
      streamId,
      events.map((event) => ({ id: handling.newId(), type: event.type, data: event.data, metadata })),
      { expectedRevision: stream.revision ?? 'no_stream' },
    );
    const state = events.reduce(decider.evolve, stream.state);
    return { events, before: stream, state, revision: appended.nextRevision, position: appended.position };
  } catch (error) {
    await sideEffect?.undo?.();
    if (error instanceof ConcurrencyError) return error;
    throw error;
  }
}

function commandFor<Command, State>(
  command: Command | CommandFactory<Command, State>,
  stream: LoadedStream<State>,
): Command | Promise<Command> {
  // Commands are tagged objects, never functions.
  return typeof command === 'function' ? (command as CommandFactory<Command, State>)(stream) : command;
}
