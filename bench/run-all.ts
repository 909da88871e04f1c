/**
 * Ingest and the PostgreSQL ceiling in one process run, so the numbers share their conditions;
 * `--replay` adds the projector replay (sized with `--events`).
 * Usage: npx tsx bench/run-all.ts [--replay] [--events 200000] [ingest and ceiling options]
 */
import { startBenchStack } from './support/bench-stack.js';
import { printIngestCpuTable, printIngestTable } from './ingest/ingest-report.js';
import { ingestOptionSpecs, readIngestOptions } from './ingest/ingest-options.js';
import { runIngest } from './ingest/run-ingest.js';
import { ceilingOptionSpecs, readCeilingOptions } from './pg-ceiling/ceiling-options.js';
import { printCeilingTable } from './pg-ceiling/pg-ceiling-report.js';
import { runPgCeiling } from './pg-ceiling/run-pg-ceiling.js';
import { printReplayTables } from './replay/replay-report.js';
import { readReplayOptions, replayOptionSpecs } from './replay/replay-options.js';
import { runReplay, type ReplayOutcome } from './replay/run-replay.js';
import { compareWithCeiling, printComparison } from './support/comparison.js';
import { isOn, readOptions } from './support/options.js';
import { stackAppPids } from './support/process-breakdown.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine } from './support/table.js';

const raw = readOptions('npx tsx bench/run-all.ts [options]', {
  ...ingestOptionSpecs,
  ...ceilingOptionSpecs,
  ...replayOptionSpecs,
  replay: { env: 'BENCH_REPLAY', default: '', help: 'also run the projector replay', flag: true },
});
const { ingest, stackEnv } = readIngestOptions(raw);
const ceilingOptions = readCeilingOptions(raw);
const replayOptions = isOn(raw.replay) ? readReplayOptions(raw) : null;
useTestServiceDefaults();
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const stack = await startBenchStack(stackEnv);
let ingestResults;
let ceilingResults;
try {
  ingestResults = await runIngest({ ...stack, appPids: stackAppPids(stack) }, ingest, log);
  log(`pg ceiling: ${ceilingOptions.inserts} inserts with ${ceilingOptions.clients.join(', ')} clients`);
  // In the stack's own database while its apps sit idle: the server, disk and load of the ingest run.
  ceilingResults = await runPgCeiling(stack.databaseUrl, ceilingOptions);
} finally {
  await stack.stop();
}
let replay: ReplayOutcome | null = null;
if (replayOptions) replay = await runReplay(replayOptions, log);

printIngestTable(ingestResults);
printIngestCpuTable(ingestResults);
printCeilingTable(ceilingResults);
const comparison = compareWithCeiling(ingestResults, ceilingResults);
printComparison(comparison);
if (replay && replayOptions) printReplayTables(replay, replayOptions.segmentEvents);
printJsonLine('run-all', {
  options: { ingest: { ...ingest, ...stackEnv }, ceiling: ceilingOptions, replay: replayOptions },
  ingest: ingestResults,
  ceiling: ceilingResults,
  comparison,
  replay,
});
