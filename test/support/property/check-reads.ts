import { callAt } from '../http.js';
import { browserPath, inParallel, listAll } from './browse.js';
import type { Cast, Person } from './cast.js';
import { canRead, children, isLive, pathOf, type World, type WorldObject } from './world.js';

/**
 * Property (b): every read answers what the model's rights allow, for every person of the run and an
 * anonymous caller, on every object the run made: the object itself (200 or 404, and its parent), its
 * breadcrumbs (the ancestors the caller may read), its children and their count, and the root level.
 * Returns what differs, one line each.
 */

const sameIds = (a: readonly string[], b: readonly string[]) =>
  JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

const short = (id: string) => id.slice(0, 8);
const shortList = (ids: readonly string[]) => `[${ids.map(short).join(', ')}]`;

function readsOfObject(
  baseUrl: string,
  world: World,
  caller: Person | null,
  object: WorldObject,
): (() => Promise<string | null>)[] {
  const headers = caller?.headers ?? {};
  const who = caller?.name ?? 'anonymous';
  const readable = isLive(world, object.id) && canRead(world, caller, object.id);
  const what = `${who} on ${object.kind} ${short(object.id)}`;
  const expectedStatus = readable ? 200 : 404;
  const reads = [
    async () => {
      const answer = await callAt<{ parentId?: string | null }>(
        baseUrl,
        'GET',
        `/api/v1/portal/items/${object.id}`,
        { headers },
      );
      if (answer.status !== expectedStatus)
        return `${what}: GET answered ${answer.status}, expected ${expectedStatus}`;
      if (readable && answer.body.parentId !== object.parentId) {
        return `${what}: GET says parent ${String(answer.body.parentId)}, expected ${String(object.parentId)}`;
      }
      return null;
    },
    async () => {
      const answer = await callAt<{ items: { id: string }[] }>(
        baseUrl,
        'GET',
        `${browserPath}/nodes/${object.id}/breadcrumbs`,
        { headers },
      );
      if (answer.status !== expectedStatus) {
        return `${what}: breadcrumbs answered ${answer.status}, expected ${expectedStatus}`;
      }
      if (!readable) return null;
      const crumbs = answer.body.items.map((crumb) => crumb.id);
      const expected = pathOf(world, object.id)
        .filter((step) => canRead(world, caller, step.id))
        .map((step) => step.id);
      return JSON.stringify(crumbs) === JSON.stringify(expected)
        ? null
        : `${what}: breadcrumbs ${shortList(crumbs)}, expected ${shortList(expected)}`;
    },
  ];
  if (object.kind === 'item') return reads;
  reads.push(async () => {
    const listing = await listAll(baseUrl, `${browserPath}/nodes/${object.id}/children`, headers);
    if (listing.status !== expectedStatus) {
      return `${what}: children answered ${listing.status}, expected ${expectedStatus}`;
    }
    if (!readable) return null;
    const listed = listing.items.map((node) => node.id);
    const expected = children(world, object.id)
      .filter((child) => !child.tombstone && canRead(world, caller, child.id))
      .map((child) => child.id);
    if (!sameIds(listed, expected))
      return `${what}: children ${shortList(listed)}, expected ${shortList(expected)}`;
    const count = listing.node?.childCount;
    return count === expected.length
      ? null
      : `${what}: childCount ${String(count)}, expected ${expected.length}`;
  });
  return reads;
}

function readOfRoot(baseUrl: string, world: World, caller: Person | null): () => Promise<string | null> {
  return async () => {
    const listing = await listAll(baseUrl, `${browserPath}/root`, caller?.headers ?? {});
    if (listing.status !== 200) return `${caller?.name ?? 'anonymous'}: root answered ${listing.status}`;
    // Earlier runs' public objects are listed too: only this run's objects are compared.
    const listed = listing.items.map((node) => node.id).filter((id) => world.objects.has(id));
    const expected = children(world, null)
      .filter((root) => !root.tombstone && canRead(world, caller, root.id))
      .map((root) => root.id);
    return sameIds(listed, expected)
      ? null
      : `${caller?.name ?? 'anonymous'}: root level ${shortList(listed)}, expected ${shortList(expected)}`;
  };
}

export async function readProblems(baseUrl: string, cast: Cast, world: World): Promise<string[]> {
  const callers: (Person | null)[] = [...cast.people, null];
  const tasks = callers.flatMap((caller) => [
    readOfRoot(baseUrl, world, caller),
    ...[...world.objects.values()].flatMap((object) => readsOfObject(baseUrl, world, caller, object)),
  ]);
  const results = await inParallel(tasks);
  return results.filter((problem): problem is string => problem !== null);
}
