import { printTable } from '../support/table.js';
import type { EventsBenchOptions } from './events-options.js';
import type { EventsBenchResult } from './run-events.js';

export function printEventsTables(options: EventsBenchOptions, result: EventsBenchResult): void {
  const made = {
    batch: `POST / batches of ${options.batchSize} creates`,
    update: 'one PATCH per change',
    simulated: 'simulated projector output',
  }[options.changes];
  printTable(
    `SSE fan-out: ${options.clients} clients of ${options.users} user(s), ${options.rate} changes/s scheduled (${made}), ${options.seconds} s measured`,
    [
      'changes/s',
      'failed changes',
      'skipped requests',
      'late 202',
      'made',
      'seen',
      'clients',
      'lost',
      'cpu busy',
      'api cpu',
      'bench cpu',
    ],
    [
      [
        result.changesPerSecond,
        result.failedChanges,
        result.skippedRequests,
        result.lateAnswers,
        result.changesMade,
        result.changesSeen,
        result.clientsConnected,
        result.clientsLost,
        `${Math.round(result.cpu.machineBusyPercent)}%`,
        `${Math.round(result.apiCpuPercentOfCore)}%`,
        `${Math.round(result.cpu.benchProcessPercent)}%`,
      ],
    ],
  );
  printTable(
    'Deliveries of the changes projected in the measured seconds',
    [
      'deliveries',
      'expected',
      'incomplete changes',
      'clients off count',
      'deliv/s',
      'read before projection seen',
    ],
    [
      [
        result.deliveries,
        result.expectedDeliveries,
        result.incompleteChanges,
        result.clientsOffCount,
        Math.round(result.deliveriesPerSecond),
        result.receivedBeforeProjectionSeen,
      ],
    ],
  );
  const { deliveryMs: d, answerMs: a } = result;
  printTable(
    'Latency, ms',
    ['what', 'count', 'p50', 'p95', 'p99', 'max'],
    [
      ['projected → SSE receipt, per client-event', d.count, d.p50, d.p95, d.p99, d.max],
      ['change request → answer, per request', a.count, a.p50, a.p95, a.p99, a.max],
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
