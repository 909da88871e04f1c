import type { AppendOutcome, AppendResult, StreamAppend } from '@portal/domain';
import { validateAppend } from './append-rules.js';

/** Every entry is a valid append, and no stream appears twice (its entries would depend on each other). */
export function validateAppendMany(appends: readonly StreamAppend[]): void {
  const streams = new Set<string>();
  for (const { streamId, events, expectedRevision } of appends) {
    validateAppend(streamId, events, expectedRevision);
    if (streams.has(streamId)) throw new RangeError(`stream ${streamId} appears twice in one appendMany`);
    streams.add(streamId);
  }
}

export function outcomeOf(attempt: Promise<AppendResult>): Promise<AppendOutcome> {
  return attempt.then(
    (result) => ({ ok: true, result }),
    (error: unknown) => ({ ok: false, error: error instanceof Error ? error : new Error(String(error)) }),
  );
}

/** `appendMany` for an adapter without multi-stream writes: every entry as its own append, at once. */
export async function appendEachConcurrently(
  appends: readonly StreamAppend[],
  append: (entry: StreamAppend) => Promise<AppendResult>,
): Promise<readonly AppendOutcome[]> {
  validateAppendMany(appends);
  return await Promise.all(appends.map((entry) => outcomeOf(append(entry))));
}
