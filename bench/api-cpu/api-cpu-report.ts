import { printTable } from '../support/table.js';
import type { PhaseResult } from './run-api-cpu.js';

export function printApiCpuTable(phases: readonly PhaseResult[]): void {
  printTable(
    'API CPU per request (closed loop; CPU of the API process in the measured window)',
    [
      'phase',
      'requests',
      'failed',
      'req/s',
      'p50 ms',
      'p99 ms',
      'API CPU ms/req',
      'queries/req',
      'machine busy %',
    ],
    phases.map((phase) => [
      phase.phase,
      phase.requests,
      phase.failed,
      phase.requestsPerSecond,
      phase.latency.p50,
      phase.latency.p99,
      phase.apiCpuMsPerRequest,
      phase.queriesPerRequest,
      phase.machineBusyPercent,
    ]),
  );
  for (const phase of phases) {
    if (!phase.profile) continue;
    const perRequest = (ms: number) => ms / Math.max(1, phase.requests + phase.failed);
    printTable(
      `${phase.phase}: where the API's CPU went (self time)`,
      ['area', 'ms/req', '%'],
      phase.profile.byArea.map((share) => [share.name, perRequest(share.milliseconds), share.percent]),
    );
    printTable(
      `${phase.phase}: top functions (self time)`,
      ['function', 'ms/req', '%'],
      phase.profile.byFunction.map((share) => [share.name, perRequest(share.milliseconds), share.percent]),
    );
  }
}
