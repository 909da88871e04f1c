import { formatPosition, type Position } from '@portal/domain';
import { portalRebuildOptions } from '../../../apps/projector/src/rebuild/portal-rebuild.js';
import {
  RebuildInProgressError,
  rebuildReadSchema,
  type RebuildProgress,
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

/**
 * The rebuild's progress on `out`: a bar of the events replayed, then one of the reader statements
 * (indexes, statistics, triggers) with the one being applied, then a line as the ANALYZE and the swap begin.
 */
function rebuildProgress(
  out: NodeJS.WritableStream & { readonly isTTY?: boolean },
): (progress: RebuildProgress) => void {
  const events = new ProgressBar(out);
  let replayed = false;
  let statements: ProgressBar | null = null;
  const reachedHead = (progress: RebuildProgress): void => {
    if (replayed) return;
    replayed = true;
    events.finish(progress.events, 1, 'reached the head');
  };
  return (progress) => {
    switch (progress.phase) {
      case 'replaying':
        events.update(progress.events, fractionOf(progress.position, progress.until));
        return;
      case 'indexing': {
        reachedHead(progress);
        const ddl = progress.readerDdl;
        if (ddl === undefined) return;
        statements ??= new ProgressBar(out, undefined, 'statements');
        if (ddl.done < ddl.total) statements.update(ddl.done, ddl.done / ddl.total, ddl.current);
        else statements.finish(ddl.done, 1, 'built the indexes and triggers readers need');
        return;
      }
      case 'analyzing':
        reachedHead(progress);
        out.write('analyzing the rebuilt tables\n');
        return;
      case 'swapping':
        out.write('catching up the rest and swapping in\n');
        return;
    }
  };
}

export const rebuildCommand = defineCommand({
  path: ['rebuild'],
  positionals: [],
  options: {},
  summary: 'replay every event into a fresh read schema and swap it in, with a progress bar',
  details: [
    "The projector's rebuild (as npm run rebuild -w apps/projector): every event up to the head is",
    'replayed into <schema>_rebuild_<time> (with only the indexes the projector needs), then the',
    'indexes and triggers readers need are built and the tables analyzed; one short transaction',
    'catches up the rest and swaps it in for the live schema; the API keeps answering and a running',
    'projector carries on from the new checkpoint. Events the operator skipped are passed over.',
    'Progress (events, then reader statements, done against the total, rate, time left) goes to',
    'stderr. A failed rebuild leaves the live schema as it was (exit 1); a second rebuild while one',
    'runs is refused.',
  ].join('\n'),
  async run(context) {
    const { resources } = context;
    const store = await resources.store();
    const bars = rebuildProgress(context.progress);
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
        onProgress: bars,
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
