/**
 * SSE fan-out: N clients connected to `GET /api/v1/events` while changes are made through the API at a
 * fixed rate; delivery latency per client-event and the API's memory.
 * Usage: npx tsx bench/events-feed.ts [--clients 1000] [--rate 500] [--seconds 30]
 */
import { startBenchStack } from './support/bench-stack.js';
import { printEventsTables } from './events/events-report.js';
import { eventsOptionSpecs, readEventsOptions } from './events/events-options.js';
import { runEventsBench } from './events/run-events.js';
import { readOptions } from './support/options.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine } from './support/table.js';

const options = readEventsOptions(readOptions('npx tsx bench/events-feed.ts [options]', eventsOptionSpecs));
useTestServiceDefaults();
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

log(`starting the stack; ${JSON.stringify(options)}`);
const stack = await startBenchStack({});
try {
  const result = await runEventsBench(stack, options, log);
  printEventsTables(options, result);
  printJsonLine('events-feed', { options, ...result });
} finally {
  await stack.stop();
}
