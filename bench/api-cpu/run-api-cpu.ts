import { readdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipelineKeyAt } from '../../test/support/pipeline-key.js';
import { parseExposition } from '../../test/support/prometheus-text.js';
import { runClosedLoop } from '../browser/closed-loop.js';
import { pidListeningOn } from '../events/process-memory.js';
import { cpuSeconds } from '../events/process-cpu.js';
import { startBenchStack } from '../support/bench-stack.js';
import { monotonicMicros, summarizeProfile, type ProfileSummary } from '../support/cpu-profile.js';
import type { LatencySummary } from '../support/stats.js';
import type { ApiCpuOptions, Phase } from './api-cpu-options.js';
import { phaseProbe } from './phase-requests.js';
import { seedPortal } from './seed-portal.js';

export interface PhaseResult {
  readonly phase: Phase;
  readonly requests: number;
  readonly failed: number;
  readonly requestsPerSecond: number;
  readonly latency: LatencySummary;
  /** The API process's CPU in the measured window over the requests answered in it. */
  readonly apiCpuMsPerRequest: number;
  /** Queries the API's main pool sent in the window over the requests answered in it. */
  readonly queriesPerRequest: number;
  readonly machineBusyPercent: number;
  readonly profile?: ProfileSummary;
}

interface Window {
  readonly phase: Phase;
  readonly fromMicros: number;
  readonly toMicros: number;
}

/** The API's `portal_pg_queries_total` of its main pool, from its metrics listener. */
async function apiQueriesSent(metricsUrl: string): Promise<number> {
  const families = parseExposition(await (await fetch(metricsUrl)).text());
  const sample = families
    .get('portal_pg_queries_total')
    ?.samples.find((candidate) => candidate.labels.pool === 'main');
  if (!sample) throw new Error(`no portal_pg_queries_total{pool="main"} at ${metricsUrl}`);
  return sample.value;
}

function profileOf(directory: string, pid: number): string {
  const file = readdirSync(directory).find(
    (name) => name.includes(`.${pid}.`) && name.endsWith('.cpuprofile'),
  );
  if (!file) throw new Error(`no CPU profile of the API (pid ${pid}) in ${directory}`);
  return join(directory, file);
}

/**
 * Starts the stack (the API under `--cpu-prof` when profiling), seeds a small portal, then runs each
 * phase closed-loop and reads the API process's CPU time around the measured window.
 */
export async function runApiCpu(
  options: ApiCpuOptions,
): Promise<{ phases: PhaseResult[]; profileFile?: string }> {
  const profileDirectory = options.profile ? await mkdtemp(join(tmpdir(), 'api-cpu-')) : null;
  if (profileDirectory) process.env.STACK_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${profileDirectory}`;
  const stack = await startBenchStack({ LOG_LEVEL: 'info' });
  const results: Omit<PhaseResult, 'profile'>[] = [];
  const windows: Window[] = [];
  let pid: number | null = null;
  try {
    pid = pidListeningOn(Number(new URL(stack.baseUrl).port));
    if (pid === null) throw new Error('cannot find the API process (ss found no listener)');
    const credential = await pipelineKeyAt(stack.baseUrl);
    const portal = await seedPortal(stack.baseUrl, credential, options.children);
    for (const phase of options.phases) {
      const probe = phaseProbe(phase, stack.baseUrl, credential, portal);
      if (options.warmupMs > 0) {
        await runClosedLoop(probe, { clients: options.clients, warmupMs: 0, durationMs: options.warmupMs });
      }
      const queriesBefore = await apiQueriesSent(stack.metricsUrls.api);
      const cpuBefore = cpuSeconds(pid);
      const fromMicros = monotonicMicros();
      const load = await runClosedLoop(probe, {
        clients: options.clients,
        warmupMs: 0,
        durationMs: options.durationMs,
      });
      const toMicros = monotonicMicros();
      const cpuMs = (cpuSeconds(pid) - cpuBefore) * 1000;
      const queries = (await apiQueriesSent(stack.metricsUrls.api)) - queriesBefore;
      const answered = Math.max(1, load.latency.count + load.failed);
      windows.push({ phase, fromMicros, toMicros });
      results.push({
        phase,
        requests: load.latency.count,
        failed: load.failed,
        requestsPerSecond: load.requestsPerSecond,
        latency: load.latency,
        apiCpuMsPerRequest: cpuMs / answered,
        queriesPerRequest: queries / answered,
        machineBusyPercent: load.machineBusyPercent,
      });
    }
  } finally {
    // The profile is written when the API exits.
    await stack.stop();
  }
  if (!profileDirectory) return { phases: results };
  const profileFile = profileOf(profileDirectory, pid);
  return {
    profileFile,
    phases: results.map((result, index) => {
      const window = windows[index];
      return window
        ? { ...result, profile: summarizeProfile(profileFile, window.fromMicros, window.toMicros) }
        : result;
    }),
  };
}
