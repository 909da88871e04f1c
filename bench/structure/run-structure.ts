import { comparePositions, parsePosition, type Position } from '@portal/domain';
import { pipelineKeyAt } from '../../test/support/pipeline-key.js';
import { cpuSince, markCpu, type CpuShare } from '../support/cpu.js';
import { inGroups } from '../support/in-groups.js';
import { analyzeDatabasePeriodically } from '../support/periodic-analyze.js';
import { ProjectionArrivals } from '../support/projection-arrivals.js';
import { perSecond, summarize, type LatencySummary } from '../support/stats.js';
import {
  runOperationLoad,
  STRUCTURE_SUCCESS,
  type BenchOrganization,
  type OperationSample,
  type StructureOperation,
} from './operation-load.js';

export interface StructureOptions {
  /** Moves, and as many deletes, per client count. */
  readonly operations: number;
  readonly clients: readonly number[];
  /** Organizations the clients are spread over; each has its own structure stream. */
  readonly organizations: number;
  /** Moves and deletes sent before measuring, so JIT, pools and prepared statements are warm. */
  readonly warmup: number;
  /** ANALYZE the stack's database this often, as autovacuum would; 0 for never. */
  readonly analyzeEveryMs: number;
}

export interface StructureResult {
  readonly operation: StructureOperation;
  readonly clients: number;
  readonly organizations: number;
  readonly operations: number;
  readonly seconds: number;
  /** Operations done (answered 200 or 202) per second, first request to last answer: a refusal did nothing. */
  readonly perSecond: number;
  readonly httpMs: LatencySummary;
  /** Answers by HTTP status (0: no answer). */
  readonly statuses: Readonly<Record<string, number>>;
  /** No answer, or a status other than 200 and 202. */
  readonly failed: number;
  /** Answered 202: applied, but projection took longer than PROJECTION_WAIT_MS. */
  readonly answeredBeforeProjection: number;
  /** While the clients were sending. */
  readonly cpu: CpuShare;
}

const PROJECTION_DEADLINE_MS = 180_000;
/** Setup creates in flight at once: enough to be quick, few enough not to be the measurement. */
const SETUP_PARALLEL = 8;

interface Target {
  readonly baseUrl: string;
  readonly databaseUrl: string;
}

function newestPosition(positions: readonly (Position | null)[]): Position | null {
  let newest: Position | null = null;
  for (const position of positions) {
    if (position && (newest === null || comparePositions(position, newest) > 0)) newest = position;
  }
  return newest;
}

/** Accepted asynchronously (the caller waits for the newest position): the setup is not measured. */
async function create(
  baseUrl: string,
  credential: Record<string, string>,
  kind: 'catalogs' | 'collections',
  fields: Record<string, unknown>,
): Promise<{ id: string; position: Position }> {
  const response = await fetch(`${baseUrl}/api/v1/portal/${kind}/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'respond-async', ...credential },
    body: JSON.stringify({ description: 'Structure benchmark', links: [], ...fields }),
  });
  const body = (await response.json()) as { portalItemId?: string };
  const position = parsePosition(response.headers.get('x-event-position') ?? '');
  if (response.status !== 202 || typeof body.portalItemId !== 'string' || !position) {
    throw new Error(`creating one of the ${kind} answered ${response.status} ${JSON.stringify(body)}`);
  }
  return { id: body.portalItemId, position };
}

async function setUpOrganization(baseUrl: string, index: number): Promise<BenchOrganization> {
  const credential = await pipelineKeyAt(baseUrl);
  const [from, to] = await Promise.all(
    ['from', 'to'].map((end) =>
      create(baseUrl, credential, 'catalogs', { title: `Structure ${index} ${end}` }),
    ),
  );
  if (!from || !to) throw new Error('two catalogs expected');
  return { credential, fromCatalogId: from.id, toCatalogId: to.id };
}

/**
 * `count` collections under the organizations' `from` catalogs, the n-th in organization n mod K, all
 * projected before this returns; per organization, in that order.
 */
async function collectionsToChange(
  baseUrl: string,
  organizations: readonly BenchOrganization[],
  count: number,
  tag: string,
  arrivals: ProjectionArrivals,
): Promise<string[][]> {
  const created = await inGroups(count, SETUP_PARALLEL, (n) => {
    const organization = organizations[n % organizations.length];
    if (!organization) throw new Error('no organization');
    return create(baseUrl, organization.credential, 'collections', {
      title: `Structure ${tag} ${n}`,
      parentId: organization.fromCatalogId,
    });
  });
  const newest = newestPosition(created.map((entry) => entry.position));
  if (newest) await arrivals.waitFor(newest, PROJECTION_DEADLINE_MS);
  const targets: string[][] = organizations.map(() => []);
  created.forEach((entry, n) => targets[n % organizations.length]?.push(entry.id));
  return targets;
}

async function measure(
  target: Target,
  operation: StructureOperation,
  clients: number,
  organizations: readonly BenchOrganization[],
  targets: readonly (readonly string[])[],
  arrivals: ProjectionArrivals,
): Promise<StructureResult> {
  const cpuMark = markCpu();
  const { samples, startedAt, endedAt } = await runOperationLoad({
    baseUrl: target.baseUrl,
    operation,
    clients,
    organizations,
    targets,
  });
  const cpu = cpuSince(cpuMark);
  const done = samples.filter((sample) => sample.status === STRUCTURE_SUCCESS || sample.status === 202);
  // The next run starts from a projected state, as each ingest run does.
  const newest = newestPosition(samples.map((sample) => sample.position));
  if (newest) await arrivals.waitFor(newest, PROJECTION_DEADLINE_MS);
  return {
    operation,
    clients,
    organizations: organizations.length,
    operations: samples.length,
    seconds: (endedAt - startedAt) / 1000,
    perSecond: perSecond(done.length, endedAt - startedAt),
    httpMs: summarize(samples.map((sample) => sample.answeredAt - sample.startedAt)),
    statuses: countStatuses(samples),
    failed: samples.length - done.length,
    answeredBeforeProjection: samples.filter((sample) => sample.status === 202).length,
    cpu,
  };
}

function countStatuses(samples: readonly OperationSample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of samples) counts[String(status)] = (counts[String(status)] ?? 0) + 1;
  return counts;
}

/**
 * Per client count: collections are created (not measured), then moved to another catalog of their
 * organization, each once, then as many fresh ones deleted, each run measured and fully projected
 * before the next starts.
 */
export async function runStructure(
  target: Target,
  options: StructureOptions,
  progress: (line: string) => void,
): Promise<StructureResult[]> {
  const arrivals = await ProjectionArrivals.listen(target.databaseUrl);
  const stopAnalyzing = analyzeDatabasePeriodically(target.databaseUrl, options.analyzeEveryMs);
  try {
    const organizations = await inGroups(options.organizations, SETUP_PARALLEL, (index) =>
      setUpOrganization(target.baseUrl, index),
    );
    const run = async (operation: StructureOperation, clients: number, count: number, tag: string) => {
      const targets = await collectionsToChange(target.baseUrl, organizations, count, tag, arrivals);
      return measure(target, operation, clients, organizations, targets, arrivals);
    };
    if (options.warmup > 0) {
      progress(`warm-up: ${options.warmup} moves and ${options.warmup} deletes`);
      const clients = Math.max(...options.clients);
      await run('move', clients, options.warmup, 'warmup-move');
      await run('delete', clients, options.warmup, 'warmup-delete');
    }
    const results: StructureResult[] = [];
    for (const clients of options.clients) {
      for (const operation of ['move', 'delete'] as const) {
        progress(`${operation}: preparing ${options.operations} collections`);
        const result = await run(operation, clients, options.operations, `${operation}-${clients}`);
        progress(
          `  ${operation}: ${Math.round(result.perSecond)}/s with ${clients} clients, ` +
            `http p50 ${result.httpMs.p50.toFixed(1)} ms, failed ${result.failed}`,
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
