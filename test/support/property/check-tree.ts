import { callAt } from '../http.js';
import { browserPath, inParallel, listAll, type ListedNode } from './browse.js';
import type { Cast, Person } from './cast.js';
import { isLive, pathOf, type World } from './world.js';

/**
 * Property (a): each organization's tree, walked through the browser as its owner (who may read all of
 * it), is a tree — no node reached twice, every walk ends — holding every live object of the
 * organization under the parent the model has; every object's breadcrumbs run from a root-level node
 * down to it without repeating; and its `path` leads back to it. Returns what differs, one line each.
 */

/** Deeper than the service allows: a walk that goes on is a cycle. */
const WALK_LIMIT = 40;

const short = (id: string) => id.slice(0, 8);

interface Walk {
  /** Each node reached, with the node it was listed under and its `path`. */
  readonly reached: Map<string, { parentId: string | null; path: string | null }>;
  readonly problems: string[];
}

async function walk(baseUrl: string, owner: Person, world: World): Promise<Walk> {
  const reached = new Map<string, { parentId: string | null; path: string | null }>();
  const problems: string[] = [];
  const root = await listAll(baseUrl, `${browserPath}/root`, owner.headers);
  const ours = (node: ListedNode) => world.objects.get(node.id)?.orgId === owner.orgId;
  let level = root.items.filter(ours).map((node) => ({ node, parentId: null as string | null }));
  for (let depth = 1; level.length > 0; depth += 1) {
    if (depth > WALK_LIMIT) {
      problems.push(`${owner.name}: the walk is still going at depth ${depth}: a cycle`);
      break;
    }
    for (const { node, parentId } of level) {
      if (reached.has(node.id)) problems.push(`${owner.name}: ${short(node.id)} reached twice`);
      reached.set(node.id, { parentId, path: node.path });
    }
    const listings = await inParallel(
      level.map(
        ({ node }) =>
          () =>
            listAll(baseUrl, `${browserPath}/nodes/${node.id}/children`, owner.headers),
      ),
    );
    level = listings.flatMap((listing, index) => {
      const parent = level[index]?.node;
      if (!parent) return [];
      if (listing.status !== 200)
        problems.push(`${owner.name}: children of ${short(parent.id)}: ${listing.status}`);
      return listing.items.map((node) => ({ node, parentId: parent.id }));
    });
  }
  return { reached, problems };
}

/** Breadcrumbs of a live object, and, when the walk reached it, the path its listing gave (`undefined`: not reached). */
async function placeProblems(
  baseUrl: string,
  owner: Person,
  world: World,
  id: string,
  path: string | null | undefined,
) {
  const problems: string[] = [];
  const crumbs = await callAt<{ items: { id: string }[] }>(
    baseUrl,
    'GET',
    `${browserPath}/nodes/${id}/breadcrumbs`,
    { headers: owner.headers },
  );
  const ids = crumbs.status === 200 ? crumbs.body.items.map((crumb) => crumb.id) : [];
  const expected = pathOf(world, id).map((step) => step.id);
  if (
    crumbs.status !== 200 ||
    new Set(ids).size !== ids.length ||
    JSON.stringify(ids) !== JSON.stringify(expected)
  ) {
    problems.push(
      `${owner.name}: breadcrumbs of ${short(id)} are [${ids.map(short).join(', ')}], expected [${expected.map(short).join(', ')}]`,
    );
  }
  if (path === undefined) return problems;
  if (path === null) {
    problems.push(`${owner.name}: ${short(id)} has no path`);
    return problems;
  }
  const segments = path.split('/').map(encodeURIComponent).join('/');
  const found = await callAt<{ node?: { id: string } }>(baseUrl, 'GET', `${browserPath}/path/${segments}`, {
    headers: owner.headers,
  });
  if (found.status !== 200 || found.body.node?.id !== id) {
    problems.push(
      `${owner.name}: path ${path} answered ${found.status} ${String(found.body.node?.id)}, expected ${short(id)}`,
    );
  }
  return problems;
}

export async function treeProblems(baseUrl: string, cast: Cast, world: World): Promise<string[]> {
  const problems: string[] = [];
  for (const orgId of cast.organizations) {
    const owner = cast.ownerOf(orgId);
    const { reached, problems: walking } = await walk(baseUrl, owner, world);
    problems.push(...walking);
    const live = [...world.objects.values()].filter(
      (object) => object.orgId === orgId && isLive(world, object.id),
    );
    for (const object of live) {
      const at = reached.get(object.id);
      if (!at)
        problems.push(
          `${owner.name}: live ${object.kind} ${short(object.id)} is not reachable from the root level`,
        );
      else if (at.parentId !== object.parentId) {
        problems.push(
          `${owner.name}: ${short(object.id)} is listed under ${String(at.parentId)}, expected ${String(object.parentId)}`,
        );
      }
    }
    for (const id of reached.keys()) {
      if (!isLive(world, id)) problems.push(`${owner.name}: ${short(id)} is listed but deleted`);
    }
    const places = await inParallel(
      live.map(
        (object) => () => placeProblems(baseUrl, owner, world, object.id, reached.get(object.id)?.path),
      ),
    );
    problems.push(...places.flat());
  }
  return problems;
}
