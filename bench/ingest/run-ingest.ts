import { comparePositions, parsePosition, type Position } from '@portal/domain';
import { cpuSince, markCpu, type CpuShare } from '../support/cpu.js';
import { markCpuBreakdown, type AppPids, type CpuBreakdown } from '../support/process-breakdown.js';
import { analyzeDatabasePeriodically } from '../support/periodic-analyze.js';
import { pipelineKeyAt } from '../../test/support/pipeline-key.js';
import { perSecond, summarize, type LatencySummary } from '../support/stats.js';
import { runCreateLoad, type CreateSample, type IngestMode, type LoadPlan } from './create-load.js';
import { ProjectionArrivals } from '../support/projection-arrivals.js';

export interface IngestOptions {
  readonly modes: readonly IngestMode[];
  readonly clients: readonly number[];
  /** Creates per (mode, clients) run; half catalogs, half collections. */
  readonly creates: number;
  /** Creates sent before measuring, so JIT, pools and prepared statements are warm. */
  readonly warmup: number;
  /** Catalogs made first, for the collections to go under. */
  readonly parents: number;
  /** ANALYZE the stack's database this often, as autovacuum would; 0 for never. */
  readonly analyzeEveryMs: number;
  /** Open-loop runs after the closed-loop ones: creates per second offered, per mode; none when empty. */
  readonly rates: readonly number[];
}

/** Requests an open-loop run lets wait at once; a create due beyond that is skipped (counted). */
const OPEN_LOOP_IN_FLIGHT = 512;

export interface IngestResult {
  readonly mode: IngestMode;
  /** Open loop: the creates per second offered; null for a closed-loop run of `clients`. */
  readonly rate: number | null;
  readonly clients: number;
  /** Open loop: creates due while OPEN_LOOP_IN_FLIGHT requests waited, never sent. */
  readonly skipped: number;
  readonly creates: number;
  /** No HTTP answer, or a status other than the mode's success (201 or 202). */
  readonly failed: number;
  /** `projected` mode only: answered 202 because projection took longer than PROJECTION_WAIT_MS. */
  readonly answeredBeforeProjection: number;
  readonly seconds: number;
  /** Answered creates per second, first request to last answer. */
  readonly createsPerSecond: number;
  /** Creates per second, first request until the projector had applied the last of them. */
  readonly projectedPerSecond: number;
  readonly httpMs: LatencySummary;
  /** From the answer (async) or the request start (projected) to the checkpoint passing the create. */
  readonly appendToProjectedMs: LatencySummary;
  /** Checkpoint moves the projector announced during the run: creates / batches = events per batch. */
  readonly projectorBatches: number;
  /** While the clients were sending. */
  readonly cpu: CpuShare;
  /**
   * CPU seconds by process, from the first request until the projector had applied the last create
   * (so async mode's projection counts too); null when the app processes were not found.
   */
  readonly breakdown: CpuBreakdown | null;
}

const PROJECTION_DEADLINE_MS = 180_000;

interface Target {
  readonly baseUrl: string;
  readonly databaseUrl: string;
  /** The stack's processes, for the CPU breakdown; without them there is none. */
  readonly appPids?: AppPids;
}

function newestPosition(samples: readonly CreateSample[]): Position | null {
  let newest: Position | null = null;
  for (const { position } of samples) {
    if (position && (newest === null || comparePositions(position, newest) > 0)) newest = position;
  }
  return newest;
}

/** Accepted asynchronously, then awaited: right after start-up the projector may still be booting. */
async function createParentCatalogs(
  baseUrl: string,
  credential: Record<string, string>,
  count: number,
  arrivals: ProjectionArrivals,
): Promise<string[]> {
  const ids: string[] = [];
  let newest: Position | null = null;
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${baseUrl}/api/v1/portal/catalogs/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'respond-async', ...credential },
      body: JSON.stringify({
        title: `Bench parent ${Date.now()} ${index}`,
        description: 'Parent',
        links: [],
      }),
    });
    const body = (await response.json()) as { portalItemId?: string };
    const position = parsePosition(response.headers.get('x-event-position') ?? '');
    if (response.status !== 202 || typeof body.portalItemId !== 'string' || !position) {
      throw new Error(`creating a parent catalog answered ${response.status} ${JSON.stringify(body)}`);
    }
    ids.push(body.portalItemId);
    newest = position;
  }
  if (newest) await arrivals.waitFor(newest, PROJECTION_DEADLINE_MS);
  return ids;
}

async function measure(
  plan: LoadPlan,
  arrivals: ProjectionArrivals,
  appPids: AppPids | undefined,
): Promise<IngestResult> {
  const batchesBefore = arrivals.count;
  const endBreakdown = appPids ? markCpuBreakdown(appPids) : null;
  const cpuMark = markCpu();
  const { samples, startedAt, endedAt, skipped } = await runCreateLoad(plan);
  const cpu = cpuSince(cpuMark);
  const newest = newestPosition(samples);
  if (newest) await arrivals.waitFor(newest, PROJECTION_DEADLINE_MS);
  const breakdown = endBreakdown ? endBreakdown() : null;
  const projectorBatches = arrivals.count - batchesBefore;
  const success = plan.mode === 'async' ? 202 : 201;
  let lastProjectedAt = endedAt;
  const lags: number[] = [];
  for (const sample of samples) {
    if (!sample.position) continue;
    const projectedAt = arrivals.projectedAt(sample.position);
    if (projectedAt === undefined) continue;
    lastProjectedAt = Math.max(lastProjectedAt, projectedAt);
    const from = plan.mode === 'async' ? sample.answeredAt : sample.startedAt;
    // The NOTIFY can be handled before the HTTP answer on this busy event loop: that lag is zero.
    lags.push(Math.max(0, projectedAt - from));
  }
  return {
    mode: plan.mode,
    rate: plan.rate,
    clients: plan.clients,
    skipped,
    creates: samples.length,
    failed: samples.filter((s) => s.status !== success && !(plan.mode === 'projected' && s.status === 202))
      .length,
    answeredBeforeProjection: plan.mode === 'projected' ? samples.filter((s) => s.status === 202).length : 0,
    seconds: (endedAt - startedAt) / 1000,
    createsPerSecond: perSecond(samples.length, endedAt - startedAt),
    projectedPerSecond: perSecond(samples.length, lastProjectedAt - startedAt),
    httpMs: summarize(samples.map((s) => s.answeredAt - s.startedAt)),
    appendToProjectedMs: summarize(lags),
    projectorBatches,
    cpu,
    breakdown,
  };
}

/** Every (mode, clients) run against one running stack, one after the other, each fully projected. */
export async function runIngest(
  target: Target,
  options: IngestOptions,
  progress: (line: string) => void,
): Promise<IngestResult[]> {
  const arrivals = await ProjectionArrivals.listen(target.databaseUrl);
  const stopAnalyzing = analyzeDatabasePeriodically(target.databaseUrl, options.analyzeEveryMs);
  try {
    const credential = await pipelineKeyAt(target.baseUrl);
    const parentCatalogIds = await createParentCatalogs(
      target.baseUrl,
      credential,
      options.parents,
      arrivals,
    );
    const plan = (
      mode: IngestMode,
      clients: number,
      creates: number,
      tag: string,
      rate: number | null = null,
    ): LoadPlan => ({
      baseUrl: target.baseUrl,
      mode,
      clients,
      creates,
      parentCatalogIds,
      credential,
      tag,
      rate,
    });
    if (options.warmup > 0) {
      progress(`warm-up: ${options.warmup} creates`);
      await measure(
        plan('projected', Math.max(...options.clients), options.warmup, 'warmup'),
        arrivals,
        target.appPids,
      );
    }
    const results: IngestResult[] = [];
    for (const mode of options.modes) {
      for (const clients of options.clients) {
        progress(`ingest: ${options.creates} creates, ${mode}, ${clients} clients`);
        const result = await measure(
          plan(mode, clients, options.creates, `${mode}-${clients}`),
          arrivals,
          target.appPids,
        );
        progress(
          `  ${Math.round(result.createsPerSecond)} creates/s, http p50 ${result.httpMs.p50.toFixed(1)} ms, ` +
            `append→projected p50 ${result.appendToProjectedMs.p50.toFixed(1)} ms`,
        );
        results.push(result);
      }
      for (const rate of options.rates) {
        progress(`ingest: ${options.creates} creates, ${mode}, open loop at ${rate}/s`);
        const result = await measure(
          plan(mode, OPEN_LOOP_IN_FLIGHT, options.creates, `${mode}-rate-${rate}`, rate),
          arrivals,
          target.appPids,
        );
        progress(
          `  ${Math.round(result.createsPerSecond)} creates/s (${result.skipped} skipped), ` +
            `append→projected p99 ${result.appendToProjectedMs.p99.toFixed(1)} ms`,
        );
        results.push(result);
      }
    }
    return results;
  } finally {
    await stopAnalyzing();
    await arrivals.close();
  }
}
