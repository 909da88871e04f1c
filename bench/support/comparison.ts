import type { IngestResult } from '../ingest/run-ingest.js';
import type { CeilingResult } from '../pg-ceiling/run-pg-ceiling.js';
import { printTable } from './table.js';

export interface CeilingComparison {
  readonly mode: string;
  readonly clients: number;
  readonly createsPerSecond: number;
  readonly ceilingClients: number;
  readonly ceilingInsertsPerSecond: number;
  /** Creates per second as a share of raw INSERTs per second, in percent. */
  readonly percentOfCeiling: number;
}

/** The ceiling measured with the client count nearest to `clients` (by ratio); none when nothing was measured. */
export function nearestCeiling(
  ceiling: readonly CeilingResult[],
  clients: number,
): CeilingResult | undefined {
  const distance = (measured: number) => Math.abs(Math.log(measured / clients));
  return [...ceiling].sort((a, b) => distance(a.clients) - distance(b.clients))[0];
}

/** Each closed-loop ingest run beside the ceiling measured with the nearest client count. */
export function compareWithCeiling(
  ingest: readonly IngestResult[],
  ceiling: readonly CeilingResult[],
): CeilingComparison[] {
  return ingest.flatMap((run) => {
    // An open-loop run is offered a rate; its rate against the ceiling says nothing of the limit.
    if (run.rate !== null) return [];
    const nearest = nearestCeiling(ceiling, run.clients);
    if (!nearest) return [];
    return [
      {
        mode: run.mode,
        clients: run.clients,
        createsPerSecond: run.createsPerSecond,
        ceilingClients: nearest.clients,
        ceilingInsertsPerSecond: nearest.insertsPerSecond,
        percentOfCeiling: (100 * run.createsPerSecond) / nearest.insertsPerSecond,
      },
    ];
  });
}

export function printComparison(rows: readonly CeilingComparison[]): void {
  printTable(
    'Ingest against the PostgreSQL ceiling (same run, same server)',
    ['mode', 'clients', 'creates/s', 'ceiling clients', 'inserts/s', '% of ceiling'],
    rows.map((row) => [
      row.mode,
      row.clients,
      row.createsPerSecond,
      row.ceilingClients,
      row.ceilingInsertsPerSecond,
      `${row.percentOfCeiling.toFixed(1)}%`,
    ]),
  );
}
