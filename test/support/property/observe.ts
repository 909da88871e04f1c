import { callAt } from '../http.js';
import type { Cast } from './cast.js';
import { fingerprint } from './linearize.js';
import { isLive, type Share, type Visibility, type World, type WorldObject } from './world.js';

/**
 * When several orders of a batch explain its answers but end differently (two visibility changes of one
 * object both succeed: which came last?), the service's state decides. It is read as the owner of each
 * object's organization: liveness and parent from the object, its shares, and its visibility from its
 * history (the last `VisibilityChanged`).
 */

interface Facts {
  readonly live: boolean;
  readonly parentId: string | null;
  readonly visibility: Visibility;
  readonly shares: string;
}

const sharesText = (shares: readonly Share[]) =>
  JSON.stringify(
    shares.map((share) => `${share.principal.type}:${share.principal.id}:${share.permission}`).sort(),
  );

function factsIn(world: World, object: WorldObject): Facts {
  return {
    live: isLive(world, object.id),
    parentId: object.parentId,
    visibility: object.visibility,
    shares: sharesText(object.shares),
  };
}

async function observedFacts(baseUrl: string, cast: Cast, before: WorldObject): Promise<Facts | null> {
  const { headers } = cast.ownerOf(before.orgId);
  const path = `/api/v1/portal/items/${before.id}`;
  const object = await callAt<{ parentId: string | null }>(baseUrl, 'GET', path, { headers });
  if (object.status === 404) return null;
  const shares = await callAt<{ shares: Share[] }>(baseUrl, 'GET', `${path}/shares`, { headers });
  const history = await callAt<{ items: { type: string; change: { to?: Visibility } }[] }>(
    baseUrl,
    'GET',
    `${path}/history?limit=1000`,
    { headers },
  );
  const changes = history.body.items.filter((entry) => entry.type === 'VisibilityChanged');
  return {
    live: true,
    parentId: object.body.parentId,
    visibility: changes.at(-1)?.change.to ?? before.visibility,
    shares: sharesText(shares.body.shares),
  };
}

const sameFacts = (a: Facts, b: Facts) => JSON.stringify(a) === JSON.stringify(b);

/** The candidate worlds that agree with the service on every object they disagree on among themselves. */
export async function agreeingWithService(
  baseUrl: string,
  cast: Cast,
  before: World,
  candidates: readonly World[],
): Promise<World[]> {
  const [first, ...others] = candidates;
  if (!first || others.length === 0) return [...candidates];
  const disputed = [...first.objects.values()].filter((object) =>
    others.some((other) => {
      const there = other.objects.get(object.id);
      return !there || !sameFacts(factsIn(first, object), factsIn(other, there));
    }),
  );
  let agreeing = [...candidates];
  for (const object of disputed) {
    const observed = await observedFacts(baseUrl, cast, before.objects.get(object.id) ?? object);
    agreeing = agreeing.filter((candidate) => {
      const there = candidate.objects.get(object.id);
      if (!there) return false;
      const facts = factsIn(candidate, there);
      return observed === null ? !facts.live : sameFacts(facts, observed);
    });
  }
  const distinct = new Map(agreeing.map((world) => [fingerprint(world), world]));
  return [...distinct.values()];
}
