import { request } from 'node:http';
import { inject } from 'vitest';
import { call, expectCommand } from './http.js';

/** `X-Event-Position` values compare as (commit, prepare) pairs of integers. */
function positionKey(position: string): [bigint, bigint] {
  const [commit = '0', prepare = '0'] = position.split('.');
  return [BigInt(commit), BigInt(prepare)];
}

export function newerPosition(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  const [ka, kb] = [positionKey(a), positionKey(b)];
  return ka[0] > kb[0] || (ka[0] === kb[0] && ka[1] > kb[1]) ? a : b;
}

export interface CreateCommand {
  readonly type: 'createCatalog' | 'createCollection';
  readonly body: Record<string, unknown>;
}

interface BatchResponse {
  results: { status: number; body: { portalItemId?: string; message?: string } }[];
}

/**
 * Creates many objects through `POST /` batches of 100, `parallel` batches at a time, answered before
 * projection (`Prefer: respond-async`). Returns the ids in command order and the newest position.
 */
export async function createMany(
  commands: readonly CreateCommand[],
  parallel = 4,
): Promise<{ ids: string[]; position: string | null }> {
  const batches: CreateCommand[][] = [];
  for (let start = 0; start < commands.length; start += 100) batches.push(commands.slice(start, start + 100));
  const ids: string[][] = [];
  let position: string | null = null;
  let nextBatch = 0;
  const worker = async (): Promise<void> => {
    while (nextBatch < batches.length) {
      const index = nextBatch++;
      const response = await call<BatchResponse>('POST', '/', {
        body: { commands: batches[index] },
        headers: { prefer: 'respond-async' },
      });
      const failed = response.body.results.find((result) => result.status !== 201);
      if (response.status !== 202 || failed) {
        throw new Error(`batch ${index}: ${response.status} ${JSON.stringify(failed ?? response.body)}`);
      }
      ids[index] = response.body.results.map((result) => result.body.portalItemId ?? '');
      position = newerPosition(position, response.headers.get('x-event-position'));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { ids: ids.flat(), position };
}

/**
 * Creates the commands one request each, in order: the commands of one batch share its instant
 * (docs/decisions.md, "Browsing"), so a test of the `createdAt` order sends them apart.
 */
export async function createInTurn(
  commands: readonly CreateCommand[],
): Promise<{ ids: string[]; position: string | null }> {
  const ids: string[] = [];
  let position: string | null = null;
  for (const command of commands) {
    const made = await createMany([command], 1);
    ids.push(...made.ids);
    position = newerPosition(position, made.position);
  }
  return { ids, position };
}

/** Waits until the read models include `position` (each try waits up to the API's bound, then 503). */
export async function waitForProjection(position: string | null): Promise<void> {
  if (position === null) return;
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const response = await call('GET', '/api/v1/browser/root?limit=1', {
      headers: { 'x-min-position': position },
    });
    if (response.status === 200) return;
    if (response.status !== 503) throw new Error(`waiting for ${position}: ${response.status}`);
  }
  throw new Error(`the read models did not reach ${position}`);
}

export interface Page<T> {
  items: T[];
  next: string | null;
  links: { rel: string; href: string }[];
}

/** Follows `next` cursors from `path` (whose query must not carry a cursor) to the last page. */
export async function pageAll<T>(
  path: string,
  onPage?: (page: Page<T>) => void | Promise<void>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const url: string = cursor === null ? path : `${path}${separator}cursor=${encodeURIComponent(cursor)}`;
    const response = await call<Page<T>>('GET', url);
    if (response.status !== 200)
      throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    items.push(...response.body.items);
    await onPage?.(response.body);
    cursor = response.body.next;
  } while (cursor !== null);
  return items;
}

/**
 * Pages `path` (a keyset-paged list of objects, with its `limit`) to the end while deleting: after each
 * page, its last row (the one the cursor points after) and two rows of the next page, as a first full
 * listing (`before`) orders them. Answers the ids of that first listing, of the paged one, and of the
 * rows deleted before their page came.
 */
export async function pageWhileDeleting(
  path: string,
): Promise<{ before: string[]; listed: string[]; deletedAhead: Set<string> }> {
  const before = (await pageAll<{ id: string }>(path)).map((row) => row.id);
  const deletedAhead = new Set<string>();
  const listed = await pageAll<{ id: string }>(path, async (page) => {
    const last = page.items.at(-1)?.id ?? '';
    if (page.next === null) return;
    const at = before.indexOf(last);
    const ahead = [before[at + 1], before[at + 3]].filter((id): id is string => id !== undefined);
    for (const id of ahead) deletedAhead.add(id);
    await Promise.all(
      [last, ...ahead].map(async (id) =>
        expectCommand(await call('DELETE', `/api/v1/portal/items/${id}`), 200, `delete ${id}`),
      ),
    );
  });
  return { before, listed: listed.map((row) => row.id), deletedAhead };
}

/** A GET whose path goes out byte for byte (no URL normalisation: `.` and `..` segments stay). */
export function rawGet(path: string): Promise<{ status: number; body: unknown }> {
  const base = new URL(inject('baseUrl'));
  return new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path, method: 'GET' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : null });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
