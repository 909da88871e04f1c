import { parsePosition, type Position } from '@portal/domain';

/** What a move or a delete answers when it has been applied and projected. */
export const STRUCTURE_SUCCESS = 200;

export type StructureOperation = 'move' | 'delete';

/** One organization of the run: a pipeline key of its owner, and two catalogs to move between. */
export interface BenchOrganization {
  readonly credential: Record<string, string>;
  readonly fromCatalogId: string;
  readonly toCatalogId: string;
}

export interface OperationSample {
  /** `performance.now()` when the request was sent and when its answer was read. */
  readonly startedAt: number;
  readonly answeredAt: number;
  /** 0 when the request failed without an HTTP answer. */
  readonly status: number;
  readonly position: Position | null;
}

export interface OperationPlan {
  readonly baseUrl: string;
  readonly operation: StructureOperation;
  readonly clients: number;
  readonly organizations: readonly BenchOrganization[];
  /** Per organization, the collections to move or delete, each once. */
  readonly targets: readonly (readonly string[])[];
}

export interface OperationOutcome {
  readonly samples: readonly OperationSample[];
  readonly startedAt: number;
  readonly endedAt: number;
}

function requestFor(
  plan: OperationPlan,
  organization: BenchOrganization,
  id: string,
): { url: string; init: RequestInit } {
  const headers = { accept: 'application/json', ...organization.credential };
  if (plan.operation === 'delete') {
    return { url: `${plan.baseUrl}/api/v1/portal/items/${id}`, init: { method: 'DELETE', headers } };
  }
  return {
    url: `${plan.baseUrl}/api/v1/portal/items/${id}/move`,
    init: {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ parentId: organization.toCatalogId }),
    },
  };
}

async function send(
  plan: OperationPlan,
  organization: BenchOrganization,
  id: string,
): Promise<OperationSample> {
  const { url, init } = requestFor(plan, organization, id);
  const startedAt = performance.now();
  try {
    const response = await fetch(url, init);
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

/**
 * `clients` loops, client c working for organization c mod K: each sends its next move or delete of
 * one of its organization's collections as soon as the previous one answered. Only HTTP, so the same
 * bench runs against a service with or without the structure protocol.
 */
export async function runOperationLoad(plan: OperationPlan): Promise<OperationOutcome> {
  const queues = plan.targets.map((ids) => [...ids]);
  const samples: OperationSample[] = [];
  const client = async (index: number): Promise<void> => {
    const organizationIndex = index % plan.organizations.length;
    const organization = plan.organizations[organizationIndex];
    const queue = queues[organizationIndex];
    if (!organization || !queue) return;
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      samples.push(await send(plan, organization, id));
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: plan.clients }, (_, index) => client(index)));
  return { samples, startedAt, endedAt: performance.now() };
}
