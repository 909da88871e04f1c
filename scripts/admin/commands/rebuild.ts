import { formatPosition, type Position } from '@portal/domain';
import { portalRebuildOptions } from '../../../apps/projector/src/rebuild/portal-rebuild.js';
import {
  RebuildInProgressError,
  rebuildReadSchema,
} from '../../../apps/projector/src/rebuild/rebuild-read-schema.js';
import { defineCommand } from '../cli/command.js';
import { AdminFailure, EXIT_CODES, failureOf, refused } from '../cli/failure.js';
import { ProgressBar } from '../cli/progress-bar.js';
import { duration } from '../cli/table.js';

/** How far `position` is towards `until`, by the global part of the positions (events on PostgreSQL). */
function fractionOf(position: Position, until: Position): number {
  if (until.prepare <= 0n) return 1;
  return Number(position.prepare) / Number(until.prepare);
}

export const rebuildCommand = defineCommand({
  path: ['rebuild'],
  positionals: [],
  options: {},
  summary: 'replay every event into a fresh read schema and swap it in, with a progress bar',
  details: [
    "The projector's rebuild (as npm run rebuild -w apps/projector): every event up to the head is",
    'replayed into <schema>_rebuild_<time>, then one short transaction catches up the rest and swaps',
    'it in for the live schema; the API keeps answering and a running projector carries on from the',
    'new checkpoint. Events the operator skipped are passed over. Progress (events done against the',
    'estimated total, rate, time left) goes to stderr. A failed rebuild leaves the live schema as it',
    'was (exit 1); a second rebuild while one runs is refused.',
  ].join('\n'),
  async run(context) {
    const { resources } = context;
    const store = await resources.store();
    const bar = new ProgressBar(context.progress);
    const options = portalRebuildOptions(
      resources.config,
      resources.projectorConfig,
      { pool: resources.pool, store },
      resources.log,
    );
    let result;
    try {
      result = await rebuildReadSchema({
        ...options,
        onProgress: (progress) => {
          if (progress.phase === 'replaying') {
            bar.update(progress.events, fractionOf(progress.position, progress.until));
          } else {
            bar.finish(progress.events, 1, 'reached the head: catching up the rest and swapping in');
          }
        },
      });
    } catch (error) {
      if (error instanceof RebuildInProgressError) throw refused(error.message);
      const failure = failureOf(error);
      if (failure.exitCode !== EXIT_CODES.failed) throw failure;
      throw new AdminFailure(
        EXIT_CODES.failed,
        'FAILED',
        `rebuild failed; the live read schema is untouched: ${failure.message}`,
      );
    }
    const json = {
      schema: options.schema,
      events: result.events,
      position: formatPosition(result.position),
      durationMs: result.durationMs,
    };
    const text =
      `rebuilt schema ${options.schema}: ${result.events} events to position ${json.position} ` +
      `in ${duration(result.durationMs / 1000)}, swapped in`;
    return { json, text };
  },
});
