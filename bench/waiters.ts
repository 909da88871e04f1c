/**
 * What waiting for a projection costs as the number of waiting requests grows: each run parks N
 * waits on the API's projection waiter, advances the checkpoint like the projector, and prints how
 * long each wait took after the commit that covered it, beside a bare LISTEN connection's figure in
 * the same run, and how many queries the waiter ran (it must not grow with N).
 * Usage: npx tsx bench/waiters.ts [--waiters 1,1000,10000] [--steps 200] [--interval 5]
 */
import { readOptions } from './support/options.js';
import { createScratchDatabase } from './support/scratch-database.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine } from './support/table.js';
import { readWaiterOptions, waiterOptionSpecs } from './waiters/waiter-options.js';
import { printWaiterTable } from './waiters/waiters-report.js';
import { runWaiters, type WaiterRun } from './waiters/run-waiters.js';

const options = readWaiterOptions(readOptions('npx tsx bench/waiters.ts [options]', waiterOptionSpecs));
useTestServiceDefaults();
const database = await createScratchDatabase('bench_waiters');
try {
  const runs: WaiterRun[] = [];
  for (const waiters of options.waiterCounts) runs.push(await runWaiters(database.url, waiters, options));
  printWaiterTable(runs);
  printJsonLine('waiters', { options, runs });
} finally {
  await database.drop();
}
