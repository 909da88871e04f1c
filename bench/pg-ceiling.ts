/**
 * The raw PostgreSQL ceiling the ingest numbers compare with: autocommit single-row INSERTs into an
 * events-shaped table, from 1 and 16 connections. Runs in a scratch database it drops afterwards.
 * Usage: npx tsx bench/pg-ceiling.ts [--ceiling-inserts 20000] [--ceiling-clients 1,16]
 */
import { ceilingOptionSpecs, readCeilingOptions } from './pg-ceiling/ceiling-options.js';
import { printCeilingTable } from './pg-ceiling/pg-ceiling-report.js';
import { runPgCeiling } from './pg-ceiling/run-pg-ceiling.js';
import { readOptions } from './support/options.js';
import { createScratchDatabase } from './support/scratch-database.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine } from './support/table.js';

const options = readCeilingOptions(readOptions('npx tsx bench/pg-ceiling.ts [options]', ceilingOptionSpecs));
useTestServiceDefaults();
const database = await createScratchDatabase('bench_ceiling');
try {
  const results = await runPgCeiling(database.url, options);
  printCeilingTable(results);
  printJsonLine('pg-ceiling', { options, runs: results });
} finally {
  await database.drop();
}
