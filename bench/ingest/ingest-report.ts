import { printTable } from '../support/table.js';
import { cpuComponents, cpuMsPer, type CpuBreakdown } from '../support/process-breakdown.js';
import type { IngestResult } from './run-ingest.js';

/** `16 clients` for a closed loop, `300/s` for an open one. */
function loadOf(result: IngestResult): string {
  return result.rate === null ? `${result.clients} clients` : `${result.rate}/s`;
}

export function printIngestTable(results: readonly IngestResult[]): void {
  printTable(
    'Ingest over HTTP (latencies in ms; "append→projected": request start (projected) or 202 answer (async) until the projector checkpoint passed the create)',
    [
      'mode',
      'load',
      'creates',
      'creates/s',
      'projected/s',
      'http p50',
      'http p95',
      'http p99',
      'a→p p50',
      'a→p p99',
      'failed',
      'skipped',
      'late 202',
      'batches',
      'cpu busy',
      'bench cpu',
    ],
    results.map((r) => [
      r.mode,
      loadOf(r),
      r.creates,
      r.createsPerSecond,
      r.projectedPerSecond,
      r.httpMs.p50,
      r.httpMs.p95,
      r.httpMs.p99,
      r.appendToProjectedMs.p50,
      r.appendToProjectedMs.p99,
      r.failed,
      r.skipped,
      r.answeredBeforeProjection,
      r.projectorBatches,
      `${Math.round(r.cpu.machineBusyPercent)}%`,
      `${Math.round(r.cpu.benchProcessPercent)}%`,
    ]),
  );
}

/**
 * Where the two cores went for each run, in CPU milliseconds per create: the figure that says which
 * part of the service holds ingest back on this machine, and what a create costs end to end.
 */
export function printIngestCpuTable(results: readonly IngestResult[]): void {
  const measured = results.filter((r) => r.breakdown !== null);
  if (measured.length === 0) return;
  printTable(
    'CPU per create by process (ms of CPU per create, first request until projected; "postgres" is the whole cluster, "other" the rest of the machine; "idle" is the share of all cores left unused)',
    ['mode', 'load', ...cpuComponents, 'total', 'idle'],
    measured.map((r) => {
      const breakdown = r.breakdown as CpuBreakdown;
      const perCreate = cpuMsPer(breakdown, r.creates);
      const capacity = breakdown.wallSeconds * breakdown.cores;
      return [
        r.mode,
        loadOf(r),
        ...cpuComponents.map((name) => perCreate[name]),
        perCreate.total,
        `${Math.round((100 * breakdown.idleSeconds) / capacity)}%`,
      ];
    }),
  );
}
