import { printTable } from '../support/table.js';
import type { CeilingResult } from './run-pg-ceiling.js';

export function printCeilingTable(results: readonly CeilingResult[]): void {
  printTable(
    'PostgreSQL ceiling: single-row INSERT, autocommit, events-shaped table (latencies in ms)',
    ['clients', 'inserts', 'inserts/s', 'p50', 'p95', 'p99', 'cpu busy'],
    results.map((r) => [
      r.clients,
      r.inserts,
      r.insertsPerSecond,
      r.latencyMs.p50,
      r.latencyMs.p95,
      r.latencyMs.p99,
      `${Math.round(r.machineBusyPercent)}%`,
    ]),
  );
}
