/**
 * Moves and deletes over HTTP: N clients moving collections between catalogs of their organization,
 * then deleting others, beside the same run's PostgreSQL INSERT ceiling. Only HTTP and the stack
 * helper, so the same script measures a service with or without the per-organization structure
 * protocol (docs/cross-stream-invariants.md).
 * Usage: npx tsx bench/structure.ts [--operations 500] [--clients 1,16] [--organizations 1]
 */
import { ceilingOptionSpecs, readCeilingOptions } from './pg-ceiling/ceiling-options.js';
import { printCeilingTable } from './pg-ceiling/pg-ceiling-report.js';
import { runPgCeiling } from './pg-ceiling/run-pg-ceiling.js';
import { startBenchStack } from './support/bench-stack.js';
import { readOptions } from './support/options.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine } from './support/table.js';
import { runStructure } from './structure/run-structure.js';
import {
  compareStructureWithCeiling,
  printStructureComparison,
  printStructureTable,
} from './structure/structure-report.js';
import { readStructureOptions, structureOptionSpecs } from './structure/structure-options.js';

const raw = readOptions('npx tsx bench/structure.ts [options]', {
  ...structureOptionSpecs,
  ...ceilingOptionSpecs,
});
const { structure, stackEnv } = readStructureOptions(raw);
const ceilingOptions = readCeilingOptions(raw);
useTestServiceDefaults();
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

log(`starting the stack (${JSON.stringify(stackEnv)})`);
const stack = await startBenchStack(stackEnv);
let results;
let ceiling;
try {
  results = await runStructure(stack, structure, log);
  log(`pg ceiling: ${ceilingOptions.inserts} inserts with ${ceilingOptions.clients.join(', ')} clients`);
  // In the stack's own database while its apps sit idle, as run-all.ts does.
  ceiling = await runPgCeiling(stack.databaseUrl, ceilingOptions);
} finally {
  await stack.stop();
}
printStructureTable(results);
printCeilingTable(ceiling);
const comparison = compareStructureWithCeiling(results, ceiling);
printStructureComparison(comparison);
printJsonLine('structure', {
  options: { structure: { ...structure, ...stackEnv }, ceiling: ceilingOptions },
  runs: results,
  ceiling,
  comparison,
});
