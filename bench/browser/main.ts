/**
 * Browser benchmark: seeds a large portal through the event store, times the projector building the
 * read models, then measures the browser and inventory views under concurrent clients, over HTTP and
 * as the same SQL straight through pg.
 * Usage: npx tsx bench/browser/main.ts [--objects 1000000] [--wide-children 100000] [--clients 32]
 */
import { readOptions } from '../support/options.js';
import { useTestServiceDefaults } from '../support/services.js';
import { printJsonLine } from '../support/table.js';
import { browserOptionSpecs, readBrowserOptions } from './browser-options.js';
import { printBrowserTables } from './report.js';
import { runBrowserBench } from './run-browser-bench.js';

const options = readBrowserOptions(
  readOptions('npx tsx bench/browser/main.ts [options]', browserOptionSpecs),
);
useTestServiceDefaults();
const outcome = await runBrowserBench(options, (line) => process.stderr.write(`${line}\n`));
printBrowserTables(outcome);
printJsonLine('browser', { options, ...outcome });
