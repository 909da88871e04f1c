import { parsePosition, type Position } from '@portal/domain';

/** `projected`: the API answers 201 after the projector applied the event; `async`: 202 at once. */
export const ingestModes = ['projected', 'async'] as const;
export type IngestMode = (typeof ingestModes)[number];

export interface CreateSample {
  /** `performance.now()` when the request was sent and when its answer was read. */
  readonly startedAt: number;
  readonly answeredAt: number;
  /** 0 when the request failed without an HTTP answer. */
  readonly status: number;
  readonly position: Position | null;
}

export interface LoadPlan {
  readonly baseUrl: string;
  readonly mode: IngestMode;
  readonly clients: number;
  readonly creates: number;
  /** Collections go under these catalogs, round robin. */
  readonly parentCatalogIds: readonly string[];
  /** The pipeline's `Authorization` header (test/support/pipeline-key.ts). */
  readonly credential: Record<string, string>;
  /** Makes titles unique across runs, so the projector's slug fast path applies as in real ingest. */
  readonly tag: string;
  /**
   * Open loop: creates per second sent on a schedule whatever the answers (`clients` then bounds the
   * requests in flight; one due while that many wait is skipped and counted). Null: closed loop.
   */
  readonly rate: number | null;
}

export interface LoadOutcome {
  readonly samples: readonly CreateSample[];
  readonly startedAt: number;
  readonly endedAt: number;
  /** Open loop only: creates due while `clients` requests were still waiting, so never sent. */
  readonly skipped: number;
}

function requestFor(plan: LoadPlan, index: number): { path: string; body: string } {
  const parents = plan.parentCatalogIds;
  if (index % 2 === 0 || parents.length === 0) {
    return {
      path: '/api/v1/portal/catalogs/create',
      body: JSON.stringify({
        title: `Bench catalog ${plan.tag} ${index}`,
        description: 'Orthophotos and elevation models of one survey campaign',
        links: [],
      }),
    };
  }
  return {
    path: '/api/v1/portal/collections/create',
    body: JSON.stringify({
      title: `Bench collection ${plan.tag} ${index}`,
      description: 'Tiles of one flight line, delivered by the ingest pipeline',
      links: [],
      parentId: parents[index % parents.length],
    }),
  };
}

async function sendCreate(
  plan: LoadPlan,
  headers: Record<string, string>,
  index: number,
): Promise<CreateSample> {
  const { path, body } = requestFor(plan, index);
  const startedAt = performance.now();
  try {
    const response = await fetch(`${plan.baseUrl}${path}`, { method: 'POST', headers, body });
    // Reading the body to the end hands the connection back to the keep-alive pool.
    await response.arrayBuffer();
    const header = response.headers.get('x-event-position');
    return {
      startedAt,
      answeredAt: performance.now(),
      status: response.status,
      position: header === null ? null : parsePosition(header),
    };
  } catch {
    return { startedAt, answeredAt: performance.now(), status: 0, position: null };
  }
}

function headersFor(plan: LoadPlan): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...plan.credential,
  };
  if (plan.mode === 'async') headers.prefer = 'respond-async';
  return headers;
}

/** `clients` loops, each sending its next create as soon as the previous one answered. */
async function runClosedLoop(plan: LoadPlan): Promise<LoadOutcome> {
  const headers = headersFor(plan);
  const samples: CreateSample[] = [];
  let next = 0;
  const client = async (): Promise<void> => {
    while (next < plan.creates) {
      const index = next;
      next += 1;
      samples.push(await sendCreate(plan, headers, index));
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: plan.clients }, client));
  return { samples, startedAt, endedAt: performance.now(), skipped: 0 };
}

/** How often the open loop looks for due creates; each look sends every create due by then. */
const TICK_MS = 2;

/**
 * Create `i` is due at `i / rate` seconds after the start and is sent then, answered or not the ones
 * before it: the load a pipeline offers, not the one the service lets it offer.
 */
async function runOpenLoop(plan: LoadPlan, rate: number): Promise<LoadOutcome> {
  const headers = headersFor(plan);
  const samples: CreateSample[] = [];
  const pending = new Set<Promise<void>>();
  let skipped = 0;
  const startedAt = performance.now();
  for (let index = 0; index < plan.creates;) {
    const elapsed = performance.now() - startedAt;
    for (; index < plan.creates && (index * 1000) / rate <= elapsed; index += 1) {
      if (pending.size >= plan.clients) {
        skipped += 1;
        continue;
      }
      const sent: Promise<void> = sendCreate(plan, headers, index).then((sample) => {
        samples.push(sample);
        pending.delete(sent);
      });
      pending.add(sent);
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  await Promise.all(pending);
  return { samples, startedAt, endedAt: performance.now(), skipped };
}

export function runCreateLoad(plan: LoadPlan): Promise<LoadOutcome> {
  return plan.rate === null ? runClosedLoop(plan) : runOpenLoop(plan, plan.rate);
}
