import { printTable } from '../support/table.js';
import type { IngestResult } from './run-ingest.js';

export function printIngestTable(results: readonly IngestResult[]): void {
  printTable(
    'Ingest over HTTP (latencies in ms; "append→projected": request start (projected) or 202 answer (async) until the projector checkpoint passed the create)',
    [
      'mode',
      'clients',
      'creates',
      'creates/s',
      'projected/s',
      'http p50',
      'http p95',
      'http p99',
      'a→p p50',
      'a→p p99',
      'failed',
      'late 202',
      'batches',
      'cpu busy',
      'bench cpu',
    ],
    results.map((r) => [
      r.mode,
      r.clients,
      r.creates,
      r.createsPerSecond,
      r.projectedPerSecond,
      r.httpMs.p50,
      r.httpMs.p95,
      r.httpMs.p99,
      r.appendToProjectedMs.p50,
      r.appendToProjectedMs.p99,
      r.failed,
      r.answeredBeforeProjection,
      r.projectorBatches,
      `${Math.round(r.cpu.machineBusyPercent)}%`,
      `${Math.round(r.cpu.benchProcessPercent)}%`,
    ]),
  );
}
