import { printTable } from '../support/table.js';
import type { WaiterRun } from './run-waiters.js';

export function printWaiterTable(runs: readonly WaiterRun[]): void {
  printTable(
    'Projection waiters: one LISTEN connection fans each checkpoint out to every waiting request',
    [
      'waiters',
      'resolved',
      'timed out',
      'waiter p50 ms',
      'waiter p99 ms',
      'bare LISTEN p50 ms',
      'bare LISTEN p99 ms',
      'waiter queries',
      'queries/waiter',
    ],
    runs.map((run) => [
      run.waiters,
      run.resolved,
      run.timedOut,
      run.waiterMs.p50,
      run.waiterMs.p99,
      run.bareListenMs.p50,
      run.bareListenMs.p99,
      run.waiterQueries,
      run.waiterQueries / run.waiters,
    ]),
  );
}
