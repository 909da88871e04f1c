import type { AppendOutcome, StreamAppend } from '@portal/domain';
import type { CommandContext } from '../command-context.js';
import { asError } from './map-limited.js';

/** One `appendMany`; a failure of the whole call (a lost connection) becomes every entry's outcome. */
export async function appendAll(
  context: Pick<CommandContext, 'store'>,
  appends: readonly StreamAppend[],
): Promise<readonly AppendOutcome[]> {
  if (appends.length === 0) return [];
  try {
    return await context.store.appendMany(appends);
  } catch (error) {
    const failed: AppendOutcome = { ok: false, error: asError(error) };
    return appends.map(() => failed);
  }
}
