/**
 * STAC benchmark: seeds a satellite archive (1,000,000 items by default) through the event store, times
 * the projector building the read models, then measures the STAC query shapes under concurrent clients,
 * over HTTP and through the API's own query code straight to PostgreSQL.
 * Usage: npx tsx bench/stac.ts [--items 1000000] [--clients 8] [--duration-s 15] [--client-body text|json]
 *        [--http-client node|fetch] [--rounds 6] [--api-processes 2]
 */
import { readOptions } from './support/options.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine } from './support/table.js';
import { printStacTables } from './stac/stac-report.js';
import { probeClientOf, readStacOptions, stacOptionSpecs } from './stac/stac-options.js';
import { runStacBench } from './stac/run-stac-bench.js';

const options = readStacOptions(readOptions('npx tsx bench/stac.ts [options]', stacOptionSpecs));
useTestServiceDefaults();
const outcome = await runStacBench(options, (line) => process.stderr.write(`${line}\n`));
printStacTables(outcome, probeClientOf(options));
printJsonLine('stac', { options, ...outcome });
