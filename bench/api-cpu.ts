/**
 * How much of the API process's CPU each kind of request costs: creates (async and answered after
 * projection), a PATCH, an item read and the browser views, each closed-loop for a fixed time, with the
 * API's CPU seconds read from /proc around the window. With `--profile` the API runs under
 * `node --cpu-prof` and each phase's samples are summarized by area and by function.
 * Usage: npx tsx bench/api-cpu.ts [--phases patch,children] [--clients 16] [--duration-s 10] [--profile]
 */
import { readApiCpuOptions, apiCpuOptionSpecs } from './api-cpu/api-cpu-options.js';
import { printApiCpuTable } from './api-cpu/api-cpu-report.js';
import { runApiCpu } from './api-cpu/run-api-cpu.js';
import { readOptions } from './support/options.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine } from './support/table.js';

const options = readApiCpuOptions(readOptions('npx tsx bench/api-cpu.ts [options]', apiCpuOptionSpecs));
useTestServiceDefaults();
const result = await runApiCpu(options);
printApiCpuTable(result.phases);
if (result.profileFile) process.stdout.write(`profile: ${result.profileFile}\n`);
printJsonLine('api-cpu', { options, ...result });
