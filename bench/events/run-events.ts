import type { Stack } from '../../test/support/stack.js';
import { cpuSince, markCpu, type CpuShare } from '../support/cpu.js';
import { pipelineCredential } from '../support/pipeline-credential.js';
import type { LatencySummary } from '../support/stats.js';
import { runChangeLoad, type ChangeTiming, type LoadOutcome } from './change-load.js';
import type { EventsBenchOptions } from './events-options.js';
import { LatencyHistogram } from './latency-histogram.js';
import { markProcessCpu } from './process-cpu.js';
import { pidListeningOn, sampleMemory, watchPeakMemory, type MemorySample } from './process-memory.js';
import { connectClients } from './sse-clients.js';

export interface EventsBenchResult {
  readonly load: LoadOutcome;
  readonly achievedChangesPerSecond: number;
  readonly clientsConnected: number;
  readonly clientsLost: number;
  /** Measured changes × clients still connected at the end: what should have arrived. */
  readonly expectedDeliveries: number;
  readonly deliveries: number;
  readonly deliveriesPerSecond: number;
  /** Change's HTTP answer → SSE receipt, per client-event. */
  readonly fromAnswerMs: LatencySummary;
  readonly receivedBeforeAnswer: number;
  /** Change's request start → SSE receipt. */
  readonly fromRequestMs: LatencySummary;
  readonly apiMemory: {
    readonly idle: MemorySample;
    readonly connected: MemorySample;
    readonly peak: MemorySample;
  };
  readonly cpu: CpuShare;
  /** The API process's CPU while the changes were made, as a share of one core (100 = one core busy). */
  readonly apiCpuPercentOfCore: number;
}

const TAIL_MS = 3_000;

async function createCatalogs(
  baseUrl: string,
  headers: Record<string, string>,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 16) {
    const batch = Array.from({ length: Math.min(16, count - start) }, async (_, index) => {
      const response = await fetch(`${baseUrl}/api/v1/portal/catalogs/create`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `Followed ${start + index}`,
          description: 'Changed by the bench',
          links: [],
        }),
      });
      const body = (await response.json()) as { portalItemId?: string };
      if (response.status !== 201 || !body.portalItemId)
        throw new Error(`catalog create answered ${response.status}`);
      return body.portalItemId;
    });
    ids.push(...(await Promise.all(batch)));
  }
  return ids;
}

export async function runEventsBench(
  stack: Stack,
  options: EventsBenchOptions,
  log: (line: string) => void,
): Promise<EventsBenchResult> {
  const pid = pidListeningOn(Number(new URL(stack.baseUrl).port));
  if (pid === null) throw new Error('cannot find the API process (ss)');
  const credential = await pipelineCredential(stack.baseUrl);
  const objectIds = await createCatalogs(stack.baseUrl, credential, options.objects);
  const idle = sampleMemory(pid);

  const fromAnswer = new LatencyHistogram();
  const fromRequest = new LatencyHistogram();
  const timings = new Map<string, ChangeTiming>();
  /** Receipts that came before the change's answer was read, settled when it is. */
  const early = new Map<string, number[]>();
  let deliveries = 0;
  const settle = (timing: ChangeTiming, receivedAt: number) => {
    if (!timing.measured || timing.answeredAt === null) return;
    deliveries += 1;
    fromAnswer.record(receivedAt - timing.answeredAt);
    fromRequest.record(receivedAt - timing.startedAt);
  };

  log(`connecting ${options.clients} SSE clients (API pid ${pid})`);
  // The clients act in the pipeline's organization: every change (an `org` catalog) reaches all of them.
  const clients = await connectClients(stack.baseUrl, options.clients, credential, (position, receivedAt) => {
    const timing = timings.get(position);
    if (timing) settle(timing, receivedAt);
    else {
      const waiting = early.get(position);
      if (waiting) waiting.push(receivedAt);
      else early.set(position, [receivedAt]);
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const connected = sampleMemory(pid);
  const clientsConnected = clients.open();
  log(
    `${clientsConnected} connected; ${options.warmupSeconds} s warm-up, then ${options.seconds} s at ${options.rate} changes/s`,
  );

  const stopWatching = watchPeakMemory(pid);
  const cpu = markCpu();
  const apiCpu = markProcessCpu(pid);
  const load = await runChangeLoad(
    {
      baseUrl: stack.baseUrl,
      headers: credential,
      objectIds,
      ratePerSecond: options.rate,
      warmupSeconds: options.warmupSeconds,
      seconds: options.seconds,
      maxInFlight: options.maxInFlight,
    },
    timings,
    (position, timing) => {
      for (const receivedAt of early.get(position) ?? []) settle(timing, receivedAt);
      early.delete(position);
    },
  );
  const cpuShare = cpuSince(cpu);
  const apiCpuPercentOfCore = apiCpu();
  await new Promise((resolve) => setTimeout(resolve, TAIL_MS));
  const peak = stopWatching();
  const stillOpen = clients.open();
  clients.close();

  const measuredChanges = [...timings.values()].filter((timing) => timing.measured).length;
  return {
    load,
    achievedChangesPerSecond: measuredChanges / options.seconds,
    clientsConnected,
    clientsLost: clients.lost.count,
    expectedDeliveries: measuredChanges * stillOpen,
    deliveries,
    deliveriesPerSecond: deliveries / options.seconds,
    fromAnswerMs: fromAnswer.summary(),
    receivedBeforeAnswer: fromAnswer.beforeAnswer,
    fromRequestMs: fromRequest.summary(),
    apiMemory: { idle, connected, peak },
    cpu: cpuShare,
    apiCpuPercentOfCore,
  };
}
