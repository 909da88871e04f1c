import type { Stack } from '../../test/support/stack.js';
import { cpuSince, markCpu, type CpuShare } from '../support/cpu.js';
import { settleCommandAt } from '../../test/support/command-answer.js';
import { pipelineKeyAt, signUpAt } from '../../test/support/pipeline-key.js';
import { inGroups } from '../support/in-groups.js';
import { ProjectionArrivals } from '../support/projection-arrivals.js';
import type { LatencySummary } from '../support/stats.js';
import { runChangeLoad, type ChangeRequest } from './change-load.js';
import { catalogBatches, titleUpdates } from './change-requests.js';
import { DeliveryTally } from './delivery-tally.js';
import { LatencyHistogram } from './latency-histogram.js';
import { runSimulatedProjection } from './simulated-projection.js';
import type { EventsBenchOptions } from './events-options.js';
import { markProcessCpu } from './process-cpu.js';
import { pidListeningOn, sampleMemory, watchPeakMemory, type MemorySample } from './process-memory.js';
import { connectClients } from './sse-clients.js';

export interface EventsBenchResult {
  /** Changes made by the requests sent in the measured seconds, per second. */
  readonly changesPerSecond: number;
  readonly requests: number;
  readonly failedRequests: number;
  readonly failedChanges: number;
  readonly skippedRequests: number;
  readonly lateAnswers: number;
  /** Changes the answers reported all run long, and distinct changes any client received: equal when none was lost. */
  readonly changesMade: number;
  readonly changesSeen: number;
  readonly clientsConnected: number;
  readonly clientsLost: number;
  /** Changes projected in the measured seconds × clients still connected: what should have arrived. */
  readonly expectedDeliveries: number;
  readonly deliveries: number;
  readonly deliveriesPerSecond: number;
  /** Measured changes that some still-connected client did not receive. */
  readonly incompleteChanges: number;
  /** Still-connected clients whose count of events differs from the distinct changes seen (a miss or a repeat). */
  readonly clientsOffCount: number;
  /** Projection (the read model shows the change) → SSE receipt, per client-event. */
  readonly deliveryMs: LatencySummary;
  readonly receivedBeforeProjectionSeen: number;
  /** Change request sent → answered (after projection), per request; empty for `simulated`. */
  readonly answerMs: LatencySummary;
  readonly apiMemory: {
    readonly idle: MemorySample;
    readonly connected: MemorySample;
    readonly peak: MemorySample;
  };
  readonly cpu: CpuShare;
  /** The API process's CPU while the changes were made, as a share of one core (100 = one core busy). */
  readonly apiCpuPercentOfCore: number;
}

/** After the last request: time for the last changes to reach every client. */
const TAIL_MS = 3_000;

async function createCatalogs(
  baseUrl: string,
  headers: Record<string, string>,
  count: number,
  visibility: 'org' | 'public',
): Promise<string[]> {
  return inGroups(count, 16, async (n) => {
    const response = await fetch(`${baseUrl}/api/v1/portal/catalogs/create`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: `Followed ${n}`,
        description: 'Changed by the bench',
        links: [],
        visibility,
      }),
    });
    const body = (await response.json()) as { portalItemId?: string };
    const answer = { status: response.status, headers: response.headers, body };
    await settleCommandAt(baseUrl, answer, 201, 'catalog create');
    if (!body.portalItemId) throw new Error('catalog create answered no id');
    return body.portalItemId;
  });
}

interface ChangeSchedule {
  readonly startAt: number;
  readonly measureFrom: number;
  readonly measureUntil: number;
}

/** What made the changes: HTTP requests (`batch`, `update`) or the simulated projector. */
interface ChangeOutcome {
  readonly requests: number;
  readonly failedRequests: number;
  readonly failedChanges: number;
  readonly skippedRequests: number;
  readonly lateAnswers: number;
  readonly changesMade: number;
  readonly measuredChanges: number;
  readonly answerMs: LatencySummary;
}

/** Prepares the objects the changes need and returns the function that makes them on a schedule. */
async function changeSource(
  stack: Stack,
  options: EventsBenchOptions,
  credential: Record<string, string>,
): Promise<(schedule: ChangeSchedule) => Promise<ChangeOutcome>> {
  const http =
    (requestAt: (n: number) => ChangeRequest, perRequest: number) =>
    async (schedule: ChangeSchedule): Promise<ChangeOutcome> => {
      const load = await runChangeLoad({
        ...schedule,
        baseUrl: stack.baseUrl,
        headers: credential,
        requestsPerSecond: options.rate / perRequest,
        maxInFlight: options.maxInFlight,
        requestAt,
      });
      return { ...load, answerMs: load.answerMs.summary() };
    };
  // One user: the pipeline's own `org` catalogs. Several: public ones, so every user may read them.
  const visibility = options.users === 1 ? 'org' : 'public';
  if (options.changes === 'batch')
    return http(catalogBatches(options.batchSize, visibility), options.batchSize);
  const catalogIds = await createCatalogs(stack.baseUrl, credential, options.objects, visibility);
  if (options.changes === 'update') return http(titleUpdates(catalogIds), 1);
  return async (schedule) => {
    const simulated = await runSimulatedProjection({
      ...schedule,
      databaseUrl: stack.databaseUrl,
      objectIds: catalogIds,
      changesPerSecond: options.rate,
    });
    return {
      requests: simulated.batches,
      failedRequests: 0,
      failedChanges: 0,
      skippedRequests: 0,
      lateAnswers: 0,
      changesMade: simulated.changesMade,
      measuredChanges: simulated.measuredChanges,
      answerMs: new LatencyHistogram().summary(),
    };
  };
}

/**
 * Who the clients are. One user: the pipeline's key (so every change, an `org` catalog, reaches all of
 * them, and the hub has one audience). More: that many signed-up users, each client on a user's session
 * cookie (a GET needs no CSRF token), so the hub has that many audiences.
 */
async function readersOf(
  baseUrl: string,
  users: number,
  pipeline: Record<string, string>,
  log: (line: string) => void,
): Promise<Record<string, string>[]> {
  if (users === 1) return [pipeline];
  log(`signing up ${users} users`);
  // A few at a time: each sign-up hashes a password (scrypt, 32 MiB).
  return inGroups(users, 8, async (n) => {
    const { cookie } = await signUpAt(baseUrl, `Bench reader ${n}`);
    return { cookie };
  });
}

export async function runEventsBench(
  stack: Stack,
  options: EventsBenchOptions,
  log: (line: string) => void,
): Promise<EventsBenchResult> {
  const pid = pidListeningOn(Number(new URL(stack.baseUrl).port));
  if (pid === null) throw new Error('cannot find the API process (ss)');
  const credential = await pipelineKeyAt(stack.baseUrl);
  const makeChanges = await changeSource(stack, options, credential);
  const arrivals = await ProjectionArrivals.listen(stack.databaseUrl);
  try {
    const idle = sampleMemory(pid);
    const clientCredentials = await readersOf(stack.baseUrl, options.users, credential, log);
    log(`connecting ${options.clients} SSE clients (API pid ${pid})`);
    const tally = new DeliveryTally(arrivals);
    const clients = await connectClients(
      stack.baseUrl,
      options.clients,
      (n) => clientCredentials[n % clientCredentials.length] ?? credential,
      (id, receivedAt) => {
        tally.receive(id, receivedAt);
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const connected = sampleMemory(pid);
    const clientsConnected = clients.open();
    log(
      `${clientsConnected} connected; ${options.warmupSeconds} s warm-up, then ${options.seconds} s at ` +
        `${options.rate} changes/s (${options.changes})`,
    );

    const stopWatching = watchPeakMemory(pid);
    const cpu = markCpu();
    const apiCpu = markProcessCpu(pid);
    const startAt = performance.now();
    const measureFrom = startAt + options.warmupSeconds * 1000;
    const window = { from: measureFrom, until: measureFrom + options.seconds * 1000 };
    tally.measure(window);
    const made = await makeChanges({ startAt, measureFrom: window.from, measureUntil: window.until });
    const cpuShare = cpuSince(cpu);
    const apiCpuPercentOfCore = apiCpu();
    await new Promise((resolve) => setTimeout(resolve, TAIL_MS));
    const peak = stopWatching();
    const stillOpen = clients.open();
    const receipts = clients.receiptsOfOpenClients();
    clients.close();

    const measured = tally.measuredChanges(stillOpen);
    return {
      changesPerSecond: made.measuredChanges / options.seconds,
      requests: made.requests,
      failedRequests: made.failedRequests,
      failedChanges: made.failedChanges,
      skippedRequests: made.skippedRequests,
      lateAnswers: made.lateAnswers,
      changesMade: made.changesMade,
      changesSeen: tally.changesSeen,
      clientsConnected,
      clientsLost: clients.lost.count,
      expectedDeliveries: measured.count * stillOpen,
      deliveries: tally.deliveries,
      deliveriesPerSecond: tally.deliveries / options.seconds,
      incompleteChanges: measured.incomplete,
      clientsOffCount: receipts.filter((count) => count !== tally.changesSeen).length,
      deliveryMs: tally.latency.summary(),
      receivedBeforeProjectionSeen: tally.latency.early,
      answerMs: made.answerMs,
      apiMemory: { idle, connected, peak },
      cpu: cpuShare,
      apiCpuPercentOfCore,
    };
  } finally {
    await arrivals.close();
  }
}
