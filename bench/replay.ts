/**
 * Projector replay: seeds a realistic event history into a scratch database, then times the
 * projector rebuilding the read models from START, once per batch size.
 * Usage: npx tsx bench/replay.ts [--events 1000000] [--batch-sizes 500,2000]
 */
import { printReplayTables } from './replay/replay-report.js';
import { readReplayOptions, replayOptionSpecs } from './replay/replay-options.js';
import { runReplay } from './replay/run-replay.js';
import { readOptions } from './support/options.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine } from './support/table.js';

const options = readReplayOptions(readOptions('npx tsx bench/replay.ts [options]', replayOptionSpecs));
useTestServiceDefaults();
const outcome = await runReplay(options, (line) => process.stderr.write(`${line}\n`));
printReplayTables(outcome, options.segmentEvents);
printJsonLine('replay', { options, ...outcome });
