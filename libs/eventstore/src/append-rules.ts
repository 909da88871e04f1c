import { ConcurrencyError } from '@portal/domain';
import type { AppendResult, EventToAppend, ExpectedRevision, Position } from '@portal/domain';

/**
 * Rules every adapter applies the same way, so the contract suite sees one behaviour:
 * input validation, the expected-revision check and the idempotent-retry match.
 */

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An event id is already recorded, but not as part of a retry of this very append. */
export class DuplicateEventIdError extends Error {
  override readonly name = 'DuplicateEventIdError';
  constructor(
    readonly eventId: string,
    readonly recordedInStream: string,
  ) {
    super(`event id ${eventId} is already recorded in stream ${recordedInStream}`);
  }
}

export function validateAppend(
  streamId: string,
  events: readonly EventToAppend[],
  expectedRevision: ExpectedRevision,
): void {
  if (streamId.length === 0) throw new RangeError('stream id must not be empty');
  if (events.length === 0) throw new RangeError(`append to ${streamId} needs at least one event`);
  if (typeof expectedRevision === 'bigint' && expectedRevision < 0n) {
    throw new RangeError(`expected revision must be >= 0, got ${expectedRevision}`);
  }
  const seen = new Set<string>();
  for (const event of events) {
    if (!uuidPattern.test(event.id)) throw new RangeError(`event id must be a UUID, got "${event.id}"`);
    const id = event.id.toLowerCase();
    if (seen.has(id)) throw new RangeError(`event id ${event.id} appears twice in one append`);
    seen.add(id);
  }
}

export function validateMaxBatchSize(maxBatchSize: number | undefined): number {
  const size = maxBatchSize ?? 500;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`maxBatchSize must be a positive integer`);
  return size;
}

/** `currentRevision` is the stream's last revision, `null` when the stream does not exist. */
export function expectationHolds(expected: ExpectedRevision, currentRevision: bigint | null): boolean {
  if (typeof expected === 'bigint') return currentRevision === expected;
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return currentRevision === null;
    case 'exists':
      return currentRevision !== null;
    default:
      return assertNever(expected);
  }
}

export function describeRevision(revision: ExpectedRevision | null): string {
  return revision === null ? 'no_stream' : String(revision);
}

export function concurrencyError(
  streamId: string,
  expected: ExpectedRevision,
  currentRevision: bigint | null,
): ConcurrencyError {
  return new ConcurrencyError(streamId, describeRevision(expected), describeRevision(currentRevision));
}

/** An already stored event whose id was sent again. */
export interface StoredEventRef {
  readonly id: string;
  readonly streamId: string;
  readonly revision: bigint;
  readonly position: Position;
}

/**
 * A retry of an append that already succeeded: every id is stored in this stream, consecutively,
 * in the sent order, starting where the expected revision said. Returns the original result, else `null`.
 */
export function matchIdempotentRetry(
  streamId: string,
  events: readonly EventToAppend[],
  expected: ExpectedRevision,
  stored: readonly StoredEventRef[],
): AppendResult | null {
  const byId = new Map(stored.map((event) => [event.id.toLowerCase(), event]));
  const matched = events.map((event) => byId.get(event.id.toLowerCase()));
  const first = matched[0];
  if (!first) return null;
  const consecutive = matched.every(
    (event, index) =>
      event !== undefined && event.streamId === streamId && event.revision === first.revision + BigInt(index),
  );
  if (!consecutive || !startsWhereExpected(expected, first.revision)) return null;
  const last = matched[matched.length - 1] ?? first;
  return { nextRevision: last.revision, position: last.position };
}

function startsWhereExpected(expected: ExpectedRevision, firstRevision: bigint): boolean {
  if (typeof expected === 'bigint') return firstRevision === expected + 1n;
  switch (expected) {
    case 'no_stream':
      return firstRevision === 0n;
    case 'exists':
    case 'any':
      return true;
    default:
      return assertNever(expected);
  }
}

/**
 * Decides the outcome of an append the store could not write as is: the original result of a retry,
 * or the error that explains the refusal. `null` means nothing refuses it any more (a race moved the
 * stream in between), so the caller may try again.
 */
export function explainRefusedAppend(
  streamId: string,
  events: readonly EventToAppend[],
  expected: ExpectedRevision,
  currentRevision: bigint | null,
  stored: readonly StoredEventRef[],
): AppendResult | null {
  const original = matchIdempotentRetry(streamId, events, expected, stored);
  if (original) return original;
  if (!expectationHolds(expected, currentRevision))
    throw concurrencyError(streamId, expected, currentRevision);
  const duplicate = stored[0];
  if (duplicate) throw new DuplicateEventIdError(duplicate.id, duplicate.streamId);
  return null;
}

export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${String(value)}`);
}
