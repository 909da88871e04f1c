import { printTable, type Cell } from '../support/table.js';
import type { GcSeconds } from '../support/gc-time.js';
import type { ReplayOutcome, ReplayRun } from './run-replay.js';

const SLOWEST_SHOWN = 10;

/** `4.1 (2.0) / 9.3 (7.7)`: all pauses, and the major ones among them. */
function gcColumn(fold: GcSeconds, write: GcSeconds): string {
  const part = (gc: GcSeconds): string => `${(gc.minor + gc.major).toFixed(1)} (${gc.major.toFixed(1)})`;
  return `${part(fold)} / ${part(write)}`;
}

/** `copy 10000`, and the worker's node flags when the run had any (a repeated variant repeats its label). */
function runLabel(run: ReplayRun): string {
  return `${run.mode} ${run.batchSize}${run.workerNodeVariant === '' ? '' : ` ${run.workerNodeVariant}`}`;
}

export function printReplayTables(outcome: ReplayOutcome, segmentEvents: number): void {
  const { seeding, runs } = outcome;
  printTable(
    `Seeded history (${seeding.seconds.toFixed(0)} s to seed, not measured): ${seeding.objects.toLocaleString('en-US')} objects, ${seeding.streams.toLocaleString('en-US')} streams`,
    ['event type', 'events', 'share'],
    Object.entries(seeding.types).map(([type, count]) => [
      type,
      count,
      `${((100 * count) / seeding.events).toFixed(1)}%`,
    ]),
  );
  const { ceiling } = outcome;
  const ofCeiling = (eventsPerSecond: number): string =>
    ceiling ? `${(eventsPerSecond / ceiling.insertsPerSecond).toFixed(2)}×` : '–';
  printTable(
    'Replay from START into a fresh read schema (one worker process per mode, batch size and node flags; a rebuild is timed to its swap)',
    [
      'mode',
      'batch size',
      'worker node flags',
      'events',
      'seconds',
      'events/s',
      'vs INSERT/s',
      'pg ms/event',
      'batches',
      'peak RSS MiB',
      'rows projected',
      'cpu busy',
      'replay / indexes / analyze s',
      'fold / write s',
      'worker CPU s fold / write / rest',
      'worker GC s fold / write (major)',
    ],
    runs.map((run) => [
      run.mode,
      run.batchSize,
      run.workerNodeVariant === '' ? '–' : run.workerNodeVariant,
      run.events,
      run.seconds,
      run.eventsPerSecond,
      ofCeiling(run.eventsPerSecond),
      run.pgMsPerEvent.toFixed(3),
      run.batches,
      run.peakRssMiB,
      run.projectedObjects,
      `${Math.round(run.machineBusyPercent)}%`,
      run.phaseSeconds === null
        ? '–'
        : [run.phaseSeconds.replay, run.phaseSeconds.readerDdl, run.phaseSeconds.analyze]
            .map((seconds) => seconds.toFixed(1))
            .join(' / '),
      run.foldSplit === null
        ? '–'
        : `${run.foldSplit.foldSeconds.toFixed(1)} / ${run.foldSplit.writeSeconds.toFixed(1)}`,
      run.foldSplit === null
        ? '–'
        : [run.foldSplit.foldCpuSeconds, run.foldSplit.writeCpuSeconds, run.foldSplit.restCpuSeconds]
            .map((seconds) => seconds.toFixed(1))
            .join(' / '),
      run.foldSplit === null ? '–' : gcColumn(run.foldSplit.foldGc, run.foldSplit.writeGc),
    ]),
  );
  if (ceiling) {
    printTable(
      'Ceiling in the same database after the replays: autocommit single-row INSERTs from one connection',
      ['inserts', 'inserts/s', 'p50 ms', 'p99 ms', 'cpu busy'],
      [
        [
          ceiling.inserts,
          ceiling.insertsPerSecond,
          ceiling.latencyMs.p50,
          ceiling.latencyMs.p99,
          `${Math.round(ceiling.machineBusyPercent)}%`,
        ],
      ],
    );
  }
  for (const run of runs) {
    if (run.readerStatementsMs === null || run.readerStatementsMs.length === 0) continue;
    // As the rebuild's log sorts them; not imported, which would load the projector into this parent process.
    const slowest = [...run.readerStatementsMs].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN);
    printTable(
      `The ${slowest.length} slowest reader statements of ${runLabel(run)} (several run at once)`,
      ['statement', 'seconds'],
      slowest.map((time) => [time.label, (time.ms / 1000).toFixed(1)]),
    );
  }
  const segments = Math.max(0, ...runs.map((run) => run.segmentRates.length));
  const label = (index: number): string =>
    `${((index * segmentEvents) / 1000).toLocaleString('en-US')}k–${(((index + 1) * segmentEvents) / 1000).toLocaleString('en-US')}k`;
  printTable(
    `Replay events/s per ${segmentEvents.toLocaleString('en-US')} events`,
    ['events', ...runs.map(runLabel)],
    Array.from({ length: segments }, (_, index): Cell[] => [
      label(index),
      ...runs.map((run) => run.segmentRates[index] ?? Number.NaN),
    ]),
  );
}
