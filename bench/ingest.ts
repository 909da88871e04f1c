/**
 * HTTP ingest: N concurrent clients creating catalogs and collections against the whole stack, in
 * the default mode (answer after projection) and with `Prefer: respond-async`.
 * Usage: npx tsx bench/ingest.ts [--creates 5000] [--clients 1,16,64] [--modes projected,async]
 */
import { startBenchStack } from './support/bench-stack.js';
import { ingestModes } from './ingest/create-load.js';
import { printIngestCpuTable, printIngestTable } from './ingest/ingest-report.js';
import { ingestOptionSpecs, readIngestOptions } from './ingest/ingest-options.js';
import { runIngest } from './ingest/run-ingest.js';
import { readOptions } from './support/options.js';
import { stackAppPids } from './support/process-breakdown.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine } from './support/table.js';

const raw = readOptions('npx tsx bench/ingest.ts [options]', ingestOptionSpecs);
const { ingest, stackEnv } = readIngestOptions(raw);
useTestServiceDefaults();
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

log(
  `starting the stack (${JSON.stringify(stackEnv)}); modes ${ingest.modes.join(',')} of ${ingestModes.join(',')}`,
);
const stack = await startBenchStack(stackEnv);
try {
  const results = await runIngest({ ...stack, appPids: stackAppPids(stack) }, ingest, log);
  printIngestTable(results);
  printIngestCpuTable(results);
  printJsonLine('ingest', { options: { ...ingest, ...stackEnv }, runs: results });
} finally {
  await stack.stop();
}
