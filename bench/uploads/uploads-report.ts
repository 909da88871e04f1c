import { printTable } from '../support/table.js';
import type { BarrierReport } from './barrier-watch.js';
import type { Throughput } from './throughput.js';
import type { UploadBenchResult } from './run-uploads.js';
import { MIB, type UploadBenchOptions } from './upload-options.js';

function percentOf(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1)}%`;
}

function cpuCells(throughput: Throughput): string[] {
  return [
    `${Math.round(throughput.cpu.machineBusyPercent)}%`,
    `${Math.round(throughput.cpu.benchProcessPercent)}%`,
  ];
}

/** Share of samples with another database's transaction open, and the oldest one seen. */
function barrierCell(report: BarrierReport): string {
  if (report.samples === 0) return '-';
  return `${Math.round(report.heldPercent)}%, ${Math.round(report.oldestMs)} ms`;
}

export function printUploadTables(result: UploadBenchResult, options: UploadBenchOptions): void {
  const { ceiling, service, smallItems, foreignTransactions } = result;
  const ceilingRate = ceiling.put.mibPerSecond;
  printTable(
    `Upload of ${options.sizeBytes / MIB} MiB in ${service.parts} parts of ${options.partBytes / MIB} MiB, ` +
      `${options.putParallel} PUTs in flight (node fetch, loopback; every part is a view of one random ` +
      `${options.partBytes / MIB} MiB buffer)`,
    ['path', 'timed', 'seconds', 'MiB/s', 'of ceiling', 'cpu busy', 'bench cpu'],
    [
      [
        'raw S3 PutObject, presigned (ceiling)',
        'PUTs',
        ceiling.put.seconds,
        ceilingRate,
        '100%',
        ...cpuCells(ceiling.put),
      ],
      [
        'service: presigned UploadPart',
        'PUTs',
        service.put.seconds,
        service.put.mibPerSecond,
        percentOf(service.put.mibPerSecond, ceilingRate),
        ...cpuCells(service.put),
      ],
      [
        'service: end to end',
        'create → ready',
        service.endToEnd.seconds,
        service.endToEnd.mibPerSecond,
        percentOf(service.endToEnd.mibPerSecond, ceilingRate),
        ...cpuCells(service.endToEnd),
      ],
    ],
  );
  printTable(
    'The large file through the service, step by step (ms; sizes in bytes, checked after ready; the API answers ' +
      'create and complete once their event is projected)',
    [
      'create',
      'PUTs',
      'complete → 202',
      'complete → ready',
      'GETs until ready',
      'asset size',
      'stored size',
      'xid elsewhere',
    ],
    [
      [
        service.createMs,
        service.put.seconds * 1000,
        service.completeHttpMs,
        service.completeToReadyMs,
        service.readyPolls,
        service.assetSize,
        service.storedSize,
        barrierCell(foreignTransactions.service),
      ],
    ],
  );
  printTable(
    `Complete → ready: ${smallItems.items} items of ${options.itemBytes} bytes (one part each), ` +
      `${options.completions} at once, upload worker concurrency ${options.workerConcurrency}; ready is seen ` +
      `by GETting the item ${options.pollMs} ms after the previous GET answered, so a time is late by up to ` +
      `${options.pollMs} ms + one GET (ms)`,
    [
      'items',
      'failed',
      'ready/s',
      '202 p50',
      '202 p99',
      'c→r p50',
      'c→r p95',
      'c→r p99',
      'c→r max',
      'GETs',
      'GET p50',
      'GET p99',
      'cpu busy',
      'bench cpu',
      'xid elsewhere',
    ],
    [
      [
        smallItems.items,
        smallItems.failed,
        smallItems.completionsPerSecond,
        smallItems.completeHttpMs.p50,
        smallItems.completeHttpMs.p99,
        smallItems.completeToReadyMs.p50,
        smallItems.completeToReadyMs.p95,
        smallItems.completeToReadyMs.p99,
        smallItems.completeToReadyMs.max,
        smallItems.polls,
        smallItems.pollHttpMs.p50,
        smallItems.pollHttpMs.p99,
        `${Math.round(smallItems.cpu.machineBusyPercent)}%`,
        `${Math.round(smallItems.cpu.benchProcessPercent)}%`,
        barrierCell(foreignTransactions.smallItems),
      ],
    ],
  );
  process.stdout.write(
    '"xid elsewhere": share of 100 ms samples in which another database held a transaction with an xid, and the\n' +
      'oldest such transaction; while one is open the event store delivers nothing newer (its barrier), so the\n' +
      "API's wait for projection and `ready` wait for it too.\n",
  );
  const holders = [
    ...new Set([...foreignTransactions.service.holders, ...foreignTransactions.smallItems.holders]),
  ];
  if (holders.length > 0) process.stdout.write(`held by (database/application): ${holders.join(', ')}\n`);
  if (smallItems.firstFailure !== null) {
    process.stdout.write(`first failure: ${smallItems.firstFailure}\n`);
  }
}
