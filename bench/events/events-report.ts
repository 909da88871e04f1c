import { printTable } from '../support/table.js';
import type { EventsBenchOptions } from './events-options.js';
import type { EventsBenchResult } from './run-events.js';

export function printEventsTables(options: EventsBenchOptions, result: EventsBenchResult): void {
  printTable(
    `SSE fan-out: ${options.clients} clients, ${options.rate} changes/s scheduled, ${options.seconds} s measured`,
    [
      'changes/s',
      'failed',
      'skipped',
      'clients',
      'lost',
      'deliveries',
      'expected',
      'deliv/s',
      'cpu busy',
      'api cpu',
      'bench cpu',
    ],
    [
      [
        result.achievedChangesPerSecond,
        result.load.failed,
        result.load.skipped,
        result.clientsConnected,
        result.clientsLost,
        result.deliveries,
        result.expectedDeliveries,
        result.deliveriesPerSecond,
        `${Math.round(result.cpu.machineBusyPercent)}%`,
        `${Math.round(result.apiCpuPercentOfCore)}%`,
        `${Math.round(result.cpu.benchProcessPercent)}%`,
      ],
    ],
  );
  const { fromAnswerMs: a, fromRequestMs: r } = result;
  printTable(
    'Delivery latency per client-event, ms',
    ['from', 'count', 'p50', 'p95', 'p99', 'max', 'before answer'],
    [
      ['HTTP answer', a.count, a.p50, a.p95, a.p99, a.max, result.receivedBeforeAnswer],
      ['request start', r.count, r.p50, r.p95, r.p99, r.max, ''],
    ],
  );
  const { idle, connected, peak } = result.apiMemory;
  printTable(
    'API process memory, MiB (RSS; anonymous = V8 heap, buffers, native)',
    ['when', 'rss', 'anonymous'],
    [
      ['before clients', idle.rssMiB, idle.anonMiB],
      [`${result.clientsConnected} clients idle`, connected.rssMiB, connected.anonMiB],
      ['peak under load', peak.rssMiB, peak.anonMiB],
    ],
  );
}
