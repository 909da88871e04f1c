import { settleCommandAt } from '../../test/support/command-answer.js';

/** What the phases read and change: a wide node, a deep chain, catalogs to rename. */
export interface SeededPortal {
  readonly wideId: string;
  readonly childIds: readonly string[];
  readonly deepId: string;
  readonly deepSlugs: readonly string[];
}

export const CHAIN_DEPTH = 20;
const BATCH = 100;

interface Created {
  readonly portalItemId?: string;
}

async function send(
  baseUrl: string,
  headers: Record<string, string>,
  path: string,
  body: unknown,
  answered = 201,
): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  await settleCommandAt(
    baseUrl,
    { status: response.status, headers: response.headers, body: answer },
    answered,
    path,
  );
  return answer;
}

async function createCatalog(
  baseUrl: string,
  headers: Record<string, string>,
  title: string,
  parentId?: string,
): Promise<string> {
  const body = {
    title,
    description: 'Seeded by the API CPU bench',
    links: [],
    ...(parentId ? { parentId } : {}),
  };
  const created = (await send(baseUrl, headers, '/api/v1/portal/catalogs/create', body)) as Created;
  if (!created.portalItemId) throw new Error('catalog create answered no id');
  return created.portalItemId;
}

/** A catalog with `children` child catalogs (created in `POST /` batches) and a chain CHAIN_DEPTH deep. */
export async function seedPortal(
  baseUrl: string,
  headers: Record<string, string>,
  children: number,
): Promise<SeededPortal> {
  const wideId = await createCatalog(baseUrl, headers, 'Wide');
  const childIds: string[] = [];
  for (let from = 0; from < children; from += BATCH) {
    const commands = Array.from({ length: Math.min(BATCH, children - from) }, (_, index) => ({
      type: 'createCatalog',
      body: { title: `Child ${from + index}`, description: 'A child', links: [], parentId: wideId },
    }));
    const answer = (await send(baseUrl, headers, '/', { commands }, 200)) as {
      results?: readonly { body?: Created }[];
    };
    for (const result of answer.results ?? []) {
      if (result.body?.portalItemId) childIds.push(result.body.portalItemId);
    }
  }
  if (childIds.length !== children) throw new Error(`seeded ${childIds.length} of ${children} children`);
  const deepSlugs: string[] = [];
  let deepId: string | undefined;
  for (let depth = 1; depth <= CHAIN_DEPTH; depth += 1) {
    deepId = await createCatalog(baseUrl, headers, `Level ${depth}`, deepId);
    deepSlugs.push(`level-${depth}`);
  }
  return { wideId, childIds, deepId: deepId ?? wideId, deepSlugs };
}
