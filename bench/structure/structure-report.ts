import type { CeilingResult } from '../pg-ceiling/run-pg-ceiling.js';
import { printTable } from '../support/table.js';
import { nearestCeiling } from '../support/comparison.js';
import type { StructureResult } from './run-structure.js';

export interface StructureComparison {
  readonly operation: string;
  readonly clients: number;
  readonly perSecond: number;
  readonly ceilingClients: number;
  readonly ceilingInsertsPerSecond: number;
  /** Operations per second as a share of raw INSERTs per second, in percent. */
  readonly percentOfCeiling: number;
}

export function printStructureTable(results: readonly StructureResult[]): void {
  printTable(
    'Moves and deletes over HTTP (each of a collection, answered once projected; latencies in ms)',
    [
      'operation',
      'clients',
      'orgs',
      'operations',
      'per second',
      'http p50',
      'http p95',
      'http p99',
      'failed',
      'late 202',
      'statuses',
      'cpu busy',
      'bench cpu',
    ],
    results.map((r) => [
      r.operation,
      r.clients,
      r.organizations,
      r.operations,
      r.perSecond,
      r.httpMs.p50,
      r.httpMs.p95,
      r.httpMs.p99,
      r.failed,
      r.answeredBeforeProjection,
      Object.entries(r.statuses)
        .map(([status, count]) => `${status}×${count}`)
        .join(' '),
      `${Math.round(r.cpu.machineBusyPercent)}%`,
      `${Math.round(r.cpu.benchProcessPercent)}%`,
    ]),
  );
}

/** Each run beside the ceiling measured with the nearest client count. */
export function compareStructureWithCeiling(
  results: readonly StructureResult[],
  ceiling: readonly CeilingResult[],
): StructureComparison[] {
  return results.flatMap((run) => {
    const nearest = nearestCeiling(ceiling, run.clients);
    if (!nearest) return [];
    return [
      {
        operation: run.operation,
        clients: run.clients,
        perSecond: run.perSecond,
        ceilingClients: nearest.clients,
        ceilingInsertsPerSecond: nearest.insertsPerSecond,
        percentOfCeiling: (100 * run.perSecond) / nearest.insertsPerSecond,
      },
    ];
  });
}

export function printStructureComparison(rows: readonly StructureComparison[]): void {
  printTable(
    'Moves and deletes against the PostgreSQL ceiling (same run, same server)',
    ['operation', 'clients', 'per second', 'ceiling clients', 'inserts/s', '% of ceiling'],
    rows.map((row) => [
      row.operation,
      row.clients,
      row.perSecond,
      row.ceilingClients,
      row.ceilingInsertsPerSecond,
      `${row.percentOfCeiling.toFixed(2)}%`,
    ]),
  );
}
