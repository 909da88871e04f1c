import { ConcurrencyError, DomainError, type EventStore, type RecordedEvent } from '@portal/domain';
import type { CommandContext } from './command-context.js';

/** A refusal found on a torn view is looked at again this many times at most. */
const ATTEMPTS = 4;

/**
 * Runs `check` (the reads and rules that precede a command's decision) so that a refusal it throws is
 * one a single instant explains. A check reads several streams one after another — the object, its
 * ancestors, the new parent — and a command between two reads can tear the view: the object still
 * shared with the caller, the new parent (below it) already not, answered "the parent does not exist"
 * where no order of the two commands gives that. So when `check` refuses, every stream it read whole is
 * asked for its revision: all unchanged, they held together at the moment the last read ended, and the
 * refusal stands; one moved on, and `check` runs again on fresh reads. Refusals are rare, so this costs
 * the usual command nothing. What `check` lets through is decided on and appended with expected
 * revisions, which the handler and the structure protocol keep consistent on their own.
 */
export async function withConsistentRefusals<T>(
  context: CommandContext,
  check: (context: CommandContext) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const reads = new Map<string, Revision>();
    try {
      return await check({ ...context, store: recordingReads(context.store, reads) });
    } catch (error) {
      // A lost append that the handler's own retries could not win is no refusal of a rule: answered as it is.
      if (!(error instanceof DomainError) || error instanceof ConcurrencyError || attempt >= ATTEMPTS)
        throw error;
      if (await unchanged(context.store, reads)) throw error;
    }
  }
}

/** A stream's revision as read; `torn` when two reads of it in one check saw different ones. */
type Revision = bigint | null | 'torn';

function lastRevision(events: readonly RecordedEvent[]): bigint | null {
  return events.at(-1)?.revision ?? null;
}

/**
 * `store`, noting the revision of every stream read whole (a tail read says nothing of the whole). A
 * stream read twice must have shown the same revision both times: a move reads the object, then the
 * new parent's ancestors (the object among them when the parent lies below it), and a share landing
 * between the two reads tears the view even though the second read is the stream's current state.
 * Revisions only grow, so a stream whose reads all agree and that still has that revision held still
 * from the first read to the look again.
 */
function recordingReads(store: EventStore, reads: Map<string, Revision>): EventStore {
  const readStream: EventStore['readStream'] = async (streamId, options) => {
    const events = await store.readStream(streamId, options);
    if (options?.fromRevision === undefined) {
      const revision = lastRevision(events);
      const earlier = reads.get(streamId);
      reads.set(streamId, earlier === undefined || earlier === revision ? revision : 'torn');
    }
    return events;
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'readStream') return readStream;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function unchanged(store: EventStore, reads: ReadonlyMap<string, Revision>): Promise<boolean> {
  if ([...reads.values()].includes('torn')) return false;
  const now = await Promise.all([...reads.keys()].map((streamId) => store.streamRevision(streamId)));
  return [...reads.values()].every((revision, index) => revision === now[index]);
}
