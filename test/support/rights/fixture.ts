import { inject } from 'vitest';
import { call, expectCommand } from '../http.js';
import { SseStream, changeOf, type SseMessage } from '../sse.js';
import { inPool } from './bounded.js';
import { ObjectMaker, type Made } from './objects.js';
import { People } from './people.js';
import { byKey, deleteKey, freshOperations, moveKey, objectKey } from './case-objects.js';
import type { RightsTable } from './rights-table.js';
import {
  deleteScenarios,
  moveScenarios,
  relations,
  situations,
  tableShares,
  type CreatorKey,
  type Situation,
} from './vocabulary.js';

/**
 * Everything the rights table's cases act on, made over HTTP before the first case runs, so each case
 * is one request (or a few) against objects made for it:
 *
 * - per situation and creator, the catalog `P`, its twin `P2` and the object `X` that the reading
 *   operations (and `patch` and `create child`, which change nothing about rights) share;
 * - per case of an operation that changes rights or takes the object away (`share`, `visibility`,
 *   `move`, `move to root`, `delete`) that the table allows, a fresh twin of `X`; per move and delete
 *   case it allows, a fresh tree of its scenario. The cases the table refuses change nothing, so those
 *   of one operation on one creator's objects (one scenario) share one object (one tree): should the
 *   service wrongly allow one, that case fails, and the others on its object may fail with it;
 * - per row, what the change feed replays to it from before the situations were made.
 */
export interface RightsFixture {
  readonly crowd: People;
  readonly situationObjects: ReadonlyMap<string, Readonly<Record<CreatorKey, SituationObjects>>>;
  /** By `objectKey`. */
  readonly fresh: ReadonlyMap<string, Made>;
  /** By `moveKey` and `deleteKey`. */
  readonly trees: ReadonlyMap<string, Readonly<Record<string, Made>>>;
  /** The objects whose changes the feed replayed to each row. */
  readonly feeds: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface SituationObjects {
  readonly parent: Made;
  readonly twin: Made;
  readonly object: Made;
  /** X's path in the browser: the slugs of P and X. */
  readonly path: string;
}

/** Requests in flight while setting up: enough to overlap waits, few enough for two cores. */
const SETUP_CONCURRENCY = 8;
const creators: readonly CreatorKey[] = ['creator', 'demotedCreator', 'removedCreator'];

function lookup<T>(record: Readonly<Record<string, T>>, key: string): T {
  const found = record[key];
  if (found === undefined) throw new Error(`unknown key "${key}"`);
  return found;
}

/** An object as the situation has it, under `parentId`, by `creator`, shared by the owner if it says so. */
async function situationObject(
  maker: ObjectMaker,
  situation: Situation,
  creator: CreatorKey,
  parentId: string,
  name: string,
): Promise<Made> {
  const made = await maker.createCatalog(creator, {
    parentId,
    visibility: situation.object.visibility,
    name,
  });
  if (situation.object.shared) await maker.share('owner', made.id, tableShares);
  return made;
}

type Placed = Omit<SituationObjects, 'path'>;

/** A situation's `P`, `P2` and `X` of each creator. */
async function situationParents(
  maker: ObjectMaker,
  code: string,
): Promise<Readonly<Record<CreatorKey, Placed>>> {
  const situation = lookup(situations, code);
  const container = async (creator: CreatorKey, name: string) => {
    const made = await maker.createCatalog(creator, {
      parentId: null,
      visibility: situation.parent.visibility,
      name: `${code} ${name} of ${creator}`,
    });
    if (situation.parent.shared) await maker.share('owner', made.id, tableShares);
    return made;
  };
  const entries = await Promise.all(
    creators.map(async (creator): Promise<[CreatorKey, Placed]> => {
      const [parent, twin] = await Promise.all([container(creator, 'P'), container(creator, 'P2')]);
      const object = await situationObject(maker, situation, creator, parent.id, `${code} X of ${creator}`);
      return [creator, { parent, twin, object }];
    }),
  );
  return Object.fromEntries(entries) as Record<CreatorKey, Placed>;
}

/** The objects with X's path, as the owner (who may read everything of A) finds the slugs. */
async function withPaths(
  crowd: People,
  byCreator: Readonly<Record<CreatorKey, Placed>>,
): Promise<Record<CreatorKey, SituationObjects>> {
  const slugOf = async (made: Made) => {
    const read = await call<{ slug: string }>('GET', `/api/v1/portal/items/${made.id}`, {
      headers: crowd.users.owner.headers,
    });
    if (read.status !== 200) throw new Error(`the owner cannot read ${made.id}: ${read.status}`);
    return read.body.slug;
  };
  const entries = await Promise.all(
    creators.map(async (creator): Promise<[CreatorKey, SituationObjects]> => {
      const objects = byCreator[creator];
      const path = `${await slugOf(objects.parent)}/${await slugOf(objects.object)}`;
      return [creator, { ...objects, path }];
    }),
  );
  return Object.fromEntries(entries) as Record<CreatorKey, SituationObjects>;
}

/** The position of a new event: where the feed replays from. */
async function currentPosition(crowd: People): Promise<string> {
  const marker = await call('POST', '/api/v1/portal/catalogs/create', {
    headers: crowd.users.owner.headers,
    body: { title: 'Rights table: the feed replays from here', description: 'marker', links: [] },
  });
  await expectCommand(marker, 201, 'the start marker');
  const position = marker.headers.get('x-event-position');
  if (position === null) throw new Error('a create answered no X-Event-Position');
  return position;
}

/** What the feed replays to `headers` after `from`, up to the public `endMarker`. */
async function replayedObjects(
  headers: Record<string, string>,
  from: string,
  endMarker: string,
): Promise<Set<string>> {
  const stream = await SseStream.open(inject('baseUrl'), '/api/v1/events', {
    ...headers,
    'last-event-id': from,
  });
  const isReset = (message: SseMessage) => message.event === 'reset';
  try {
    await stream.next(
      (message) => isReset(message) || changeOf(message).objectId === endMarker,
      'the end marker',
      60_000,
    );
    if (stream.messages.some(isReset)) throw new Error('the feed could not replay from the start marker');
    return new Set(stream.messages.map((message) => changeOf(message).objectId));
  } finally {
    stream.close();
  }
}

export async function buildRightsFixture(table: RightsTable): Promise<RightsFixture> {
  const crowd = await People.signUp();
  await crowd.makeKeys(Object.values(relations).map((relation) => relation.caller));
  const maker = new ObjectMaker(crowd);

  // The structure trees first: the feed below replays only what comes after them.
  const trees = new Map<string, Record<string, Made>>();
  const treeCases = [
    ...byKey(table.moves, moveKey).map(([key, { scenario }]) => ({
      key,
      scenario: lookup(moveScenarios, scenario),
    })),
    ...byKey(table.deletes, deleteKey).map(([key, { scenario }]) => ({
      key,
      scenario: lookup(deleteScenarios, scenario),
    })),
  ];
  await inPool(treeCases, SETUP_CONCURRENCY, async ({ key, scenario }) => {
    trees.set(key, await maker.tree(scenario.nodes, key));
  });

  const replayFrom = await currentPosition(crowd);
  const placed = new Map<string, Readonly<Record<CreatorKey, Placed>>>();
  await inPool(Object.keys(situations), 3, async (code) => {
    placed.set(code, await situationParents(maker, code));
  });
  const freshCases = byKey(
    table.objects.filter((cell) => freshOperations.includes(cell.operation)),
    objectKey,
  );
  const fresh = new Map<string, Made>();
  await inPool(freshCases, SETUP_CONCURRENCY, async ([key, { situation, relation }]) => {
    const { objectsOf } = lookup(relations, relation);
    const parent = placed.get(situation)?.[objectsOf].parent;
    if (!parent) throw new Error(`no catalog P for ${situation}`);
    fresh.set(key, await situationObject(maker, lookup(situations, situation), objectsOf, parent.id, key));
  });
  const endMarker = await maker.createCatalog('owner', {
    parentId: null,
    visibility: 'public',
    name: 'the feed replays up to here',
  });
  await maker.settled();
  const situationObjects = new Map<string, Record<CreatorKey, SituationObjects>>();
  for (const [code, byCreator] of placed) situationObjects.set(code, await withPaths(crowd, byCreator));

  await crowd.settleMemberships();
  const feeds = new Map<string, Set<string>>();
  await inPool(Object.entries(relations), 4, async ([label, { caller }]) => {
    feeds.set(label, await replayedObjects(crowd.headersOf(caller), replayFrom, endMarker.id));
  });
  return { crowd, situationObjects, fresh, trees, feeds };
}
