import { comparePositions, parsePosition, type Position } from '@portal/domain';
import { sendLines, type LineResult } from '../../scripts/ingest/send.js';
import { cpuSince, markCpu, type CpuShare } from '../support/cpu.js';
import type { ProjectionArrivals } from '../support/projection-arrivals.js';
import { perSecond } from '../support/stats.js';

export interface BulkIngestOptions {
  /** `POST /` batches of 100 creates, sent by `clients` loops. */
  readonly batches: number;
  readonly clients: number;
  /** NDJSON lines in all, spread over `bulkRequests` concurrent requests. */
  readonly lines: number;
  readonly bulkRequests: number;
}

export interface RateResult {
  readonly creates: number;
  /** Refused commands, or answered before projection (both count against the run). */
  readonly failed: number;
  readonly seconds: number;
  /** Creates answered after their projection, per second: first request to last answer. */
  readonly projectedPerSecond: number;
  readonly cpu: CpuShare;
}

export interface Target {
  readonly baseUrl: string;
  readonly arrivals: ProjectionArrivals;
  readonly credential: Record<string, string>;
  readonly parentIds: readonly string[];
  readonly tag: string;
}

const BATCH_SIZE = 100;
const PROJECTION_DEADLINE_MS = 300_000;

/** The newest of the positions seen, for the wait until the projector passed all of them. */
class Newest {
  position: Position | null = null;
  see(text: unknown): void {
    const position = typeof text === 'string' ? parsePosition(text) : null;
    if (position && (this.position === null || comparePositions(position, this.position) > 0)) {
      this.position = position;
    }
  }
}

/**
 * Creates per second until the projector had applied the last of them: the answers already wait for
 * the projection by default, but one may give up after PROJECTION_WAIT_MS, so the end is taken from
 * the projector's own checkpoint.
 */
async function projectedResult(
  target: Target,
  newest: Newest,
  run: { created: number; failed: number; startedAt: number; mark: ReturnType<typeof markCpu> },
): Promise<RateResult> {
  const answeredAt = performance.now();
  const cpu = cpuSince(run.mark);
  let endedAt = answeredAt;
  if (newest.position) {
    await target.arrivals.waitFor(newest.position, PROJECTION_DEADLINE_MS);
    endedAt = Math.max(answeredAt, target.arrivals.projectedAt(newest.position) ?? answeredAt);
  }
  const elapsed = endedAt - run.startedAt;
  return {
    creates: run.created,
    failed: run.failed,
    seconds: elapsed / 1000,
    projectedPerSecond: perSecond(run.created, elapsed),
    cpu,
  };
}

/** Half catalogs at the root, half collections under the parents, as the single-create bench does. */
function command(target: Target, index: number): Record<string, unknown> {
  const parents = target.parentIds;
  if (index % 2 === 0 || parents.length === 0) {
    return {
      type: 'createCatalog',
      body: { title: `Bulk catalog ${target.tag} ${index}`, description: 'One survey campaign', links: [] },
    };
  }
  return {
    type: 'createCollection',
    body: {
      title: `Bulk collection ${target.tag} ${index}`,
      description: 'Tiles of one flight line',
      links: [],
      parentId: parents[index % parents.length],
    },
  };
}

/** `POST /` batches of 100, answered once projected (the default), from `clients` loops. */
export async function runBatches(target: Target, options: BulkIngestOptions): Promise<RateResult> {
  let next = 0;
  const newest = new Newest();
  const counts = { created: 0, failed: 0 };
  const client = async (): Promise<void> => {
    while (next < options.batches) {
      const batch = next++;
      const commands = Array.from({ length: BATCH_SIZE }, (_, i) => command(target, batch * BATCH_SIZE + i));
      const response = await fetch(`${target.baseUrl}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...target.credential },
        body: JSON.stringify({ commands }),
      });
      const body = (await response.json()) as { results?: { status: number }[] };
      newest.see(response.headers.get('x-event-position'));
      const ok = (body.results ?? []).filter((result) => result.status === 201).length;
      counts.created += ok;
      counts.failed += BATCH_SIZE - ok;
    }
  };
  const mark = markCpu();
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: options.clients }, client));
  return projectedResult(target, newest, { ...counts, startedAt, mark });
}

/** NDJSON bulk requests; each answers its summary once its lines are projected. */
export async function runNdjson(target: Target, options: BulkIngestOptions): Promise<RateResult> {
  const apiKey = (target.credential['authorization'] ?? '').replace(/^Bearer /, '');
  const perRequest = Math.ceil(options.lines / options.bulkRequests);
  const results: LineResult[] = [];
  const newest = new Newest();
  const mark = markCpu();
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: options.bulkRequests }, (_, request) => {
      const first = request * perRequest;
      const count = Math.max(0, Math.min(perRequest, options.lines - first));
      const lines = Array.from({ length: count }, (_, i) => ({
        text: JSON.stringify(command(target, first + i)),
        origin: String(first + i),
      }));
      return sendLines({ url: new URL('/api/v1/portal/bulk', target.baseUrl), apiKey }, lines, {
        attempts: 1,
        onResult: (result) => results.push(result),
        onRetry: () => undefined,
        onSummary: (summary) => {
          newest.see(summary['position']);
        },
      });
    }),
  );
  const created = results.filter((result) => result.status === 201).length;
  return projectedResult(target, newest, { created, failed: options.lines - created, startedAt, mark });
}
