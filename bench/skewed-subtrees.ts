/**
 * Moves, shares and deletes on a skewed tree: `--children` collections below a few root catalogs (loaded
 * by SQL, then analyzed), and small catalogs of a few collections each among them. Applies leaf moves,
 * moves of the small subtrees, shares and visibility changes of them, recursive deletes and one move of
 * a whole wide catalog, through the projector's handlers in batches, timing each kind; then applies as
 * many again with every plan logged (auto_explain, nested statements) and counts the plans that read
 * `portal_objects` by a sequential scan, which must be none but for the wide catalog's own statements. The
 * ceiling beside the figures: a single-row UPDATE of one row's path by key, each in its own transaction.
 * Usage: npx tsx bench/skewed-subtrees.ts [--children 100000] [--events 60]
 */
import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@portal/domain';
import { createLogger, createPool } from '@portal/platform';
import type { PoolClient } from 'pg';
import { applyEventsInRuns } from '../apps/projector/src/batch.js';
import { portalProjection } from '../apps/projector/src/portal-projection.js';
import { ensureReadSchema } from '../apps/projector/src/schemas.js';
import { positiveInt, readOptions } from './support/options.js';
import { createScratchDatabase, scratchSchemaName } from './support/scratch-database.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine, printTable } from './support/table.js';

const raw = readOptions('npx tsx bench/skewed-subtrees.ts [options]', {
  children: { env: 'BENCH_SKEW_CHILDREN', default: '100000', help: 'collections below the wide catalogs' },
  wide: { env: 'BENCH_SKEW_WIDE', default: '3', help: 'wide root catalogs sharing them' },
  events: { env: 'BENCH_SKEW_EVENTS', default: '60', help: 'events of each kind per pass' },
});
const options = {
  children: positiveInt('children', raw.children),
  wide: positiveInt('wide', raw.wide),
  events: positiveInt('events', raw.events),
};
useTestServiceDefaults();

const orgId = randomUUID();
const smallChildren = 5;

/** Versions per object, so each event's revision passes the row's guard. */
const versions = new Map<string, bigint>();
let position = 0n;
let clock = Date.parse('2026-01-01T00:00:00.000Z');

function recorded(streamId: string, id: string, type: string, data: unknown): RecordedEvent {
  const revision = (versions.get(id) ?? 0n) + 1n;
  versions.set(id, revision);
  position += 1n;
  clock += 1000;
  return {
    id: randomUUID(),
    streamId,
    revision,
    position: { commit: position, prepare: position },
    type,
    data,
    metadata: {
      actorId: randomUUID(),
      orgId,
      correlationId: randomUUID(),
      causationId: null,
      requestId: null,
      occurredAt: new Date(clock).toISOString(),
      schemaVersion: 1,
    },
  };
}

/** The skewed tree, written by SQL: wide root catalogs sharing the children, small catalogs among them. */
async function loadTree(
  client: PoolClient,
  smallCount: number,
): Promise<{ wide: string[]; small: string[] }> {
  const wide = Array.from({ length: options.wide }, () => randomUUID());
  const small = Array.from({ length: smallCount }, () => randomUUID());
  const row = `kind, status, title, slug, parent_id, org_id, ancestor_ids, depth, child_count, version,
               created_at, updated_at, visibility, effective_visibility, created_by, read_principals`;
  const principals = `ARRAY['admin:' || $1::uuid, 'member:' || $1::uuid]`;
  await client.query(
    `INSERT INTO portal_objects (id, ${row})
     SELECT w.id, 'catalog', 'ready', 'Wide ' || w.n, 'wide-' || w.n, NULL, $1, '{}', 1, 0, 0, now(), now(),
            'org', 'org', NULL, ${principals}
       FROM unnest($2::uuid[]) WITH ORDINALITY AS w(id, n)`,
    [orgId, wide],
  );
  // The children: collections spread over the wide catalogs, then the small catalogs and theirs.
  await client.query(
    `INSERT INTO portal_objects (id, ${row})
     SELECT gen_random_uuid(), 'collection', 'ready', 'Child ' || n, 'child-' || n, w, $1, ARRAY[w], 2, 0, 0,
            now(), now(), 'org', 'org', NULL, ${principals}
       FROM generate_series(1, $3::integer) AS n, LATERAL (SELECT ($2::uuid[])[1 + n % cardinality($2::uuid[])] AS w) parent`,
    [orgId, wide, options.children],
  );
  await client.query(
    `INSERT INTO portal_objects (id, ${row})
     SELECT s.id, 'catalog', 'ready', 'Small ' || s.n, 'small-' || s.n, w, $1, ARRAY[w], 2, $4, 0, now(), now(),
            'org', 'org', NULL, ${principals}
       FROM unnest($3::uuid[]) WITH ORDINALITY AS s(id, n),
            LATERAL (SELECT ($2::uuid[])[1 + s.n % cardinality($2::uuid[])] AS w) parent`,
    [orgId, wide, small, smallChildren],
  );
  await client.query(
    `INSERT INTO portal_objects (id, ${row})
     SELECT gen_random_uuid(), 'collection', 'ready', 'Below ' || k, 'below-' || k, s.id, $1, ARRAY[p.parent_id, s.id],
            3, 0, 0, now(), now(), 'org', 'org', NULL, ${principals}
       FROM unnest($2::uuid[]) AS s(id) JOIN portal_objects p ON p.id = s.id, generate_series(1, $3::integer) AS k`,
    [orgId, small, smallChildren],
  );
  await client.query(
    `UPDATE portal_objects p SET child_count = c.n
       FROM (SELECT parent_id, count(*)::integer AS n FROM portal_objects WHERE parent_id = ANY($1) GROUP BY 1) c
      WHERE p.id = c.parent_id`,
    [wide],
  );
  await client.query('ANALYZE portal_objects');
  return { wide, small };
}

interface Tree {
  readonly wide: readonly string[];
  readonly small: readonly string[];
  /** Each small catalog's parent as the events left it. */
  readonly parents: Map<string, string>;
  readonly leaves: readonly string[];
}

/** `count` events of each kind for pass `pass` (0, 1): each small catalog and each leaf is used once. */
function eventsOfPass(tree: Tree, pass: number, count: number): Map<string, RecordedEvent[]> {
  const kinds = new Map<string, RecordedEvent[]>();
  const add = (kind: string, event: RecordedEvent): void => {
    kinds.set(kind, [...(kinds.get(kind) ?? []), event]);
  };
  const otherWide = (parent: string): string =>
    tree.wide[(tree.wide.indexOf(parent) + 1) % tree.wide.length] ?? parent;
  for (let n = 0; n < count; n += 1) {
    const [moving = '', sharing = '', hiding = '', deleting = ''] = [0, 1, 2, 3].map(
      (k) => tree.small[4 * (pass * count + n) + k] ?? '',
    );
    const leaf = tree.leaves[pass * count + n] ?? '';
    const leafParent = tree.parents.get(leaf) ?? '';
    add(
      'leaf move',
      recorded(`collection-${leaf}`, leaf, 'PortalObjectMoved', {
        id: leaf,
        kind: 'collection',
        fromParentId: leafParent,
        toParentId: otherWide(leafParent),
      }),
    );
    const parent = tree.parents.get(moving) ?? '';
    add(
      `move of ${smallChildren + 1} rows`,
      recorded(`catalog-${moving}`, moving, 'PortalObjectMoved', {
        id: moving,
        kind: 'catalog',
        fromParentId: parent,
        toParentId: otherWide(parent),
      }),
    );
    add(
      `share of ${smallChildren + 1} rows`,
      recorded(`catalog-${sharing}`, sharing, 'ObjectShared', {
        id: sharing,
        kind: 'catalog',
        principal: { type: 'user', id: randomUUID() },
        permission: 'viewer',
        previous: null,
      }),
    );
    add(
      `visibility of ${smallChildren + 1} rows`,
      recorded(`catalog-${hiding}`, hiding, 'VisibilityChanged', {
        id: hiding,
        kind: 'catalog',
        from: 'org',
        to: 'private',
      }),
    );
    add(
      `delete of ${smallChildren + 1} rows`,
      recorded(`catalog-${deleting}`, deleting, 'PortalObjectDeleted', {
        id: deleting,
        kind: 'catalog',
        recursive: true,
      }),
    );
  }
  return kinds;
}

/**
 * The ceiling a lone event is compared with: one row's path and parent changed by key in a transaction
 * of its own (a single-row UPDATE with every index of the table to maintain), ms per update.
 */
async function updateCeiling(
  client: PoolClient,
  schema: string,
  tree: Tree,
  leaves: readonly string[],
): Promise<number> {
  let ms = 0;
  for (const leaf of leaves) {
    const parent = tree.wide.find((id) => id !== tree.parents.get(leaf)) ?? '';
    await client.query(`BEGIN; SET LOCAL search_path TO "${schema}", public`);
    const began = performance.now();
    await client.query(
      'UPDATE portal_objects SET parent_id = $2, ancestor_ids = ARRAY[$2::uuid] WHERE id = $1',
      [leaf, parent],
    );
    ms += performance.now() - began;
    await client.query('COMMIT');
  }
  return ms / leaves.length;
}

/** Applies each event in a batch (transaction) of its own, as a lone event goes; answers ms per event. */
async function applyTimed(
  client: PoolClient,
  schema: string,
  events: readonly RecordedEvent[],
): Promise<number> {
  const log = createLogger({ name: 'bench-skew', level: 'warn' });
  let ms = 0;
  for (const event of events) {
    await client.query(`BEGIN; SET LOCAL search_path TO "${schema}", public`);
    const began = performance.now();
    await applyEventsInRuns(client, portalProjection, [event], log);
    ms += performance.now() - began;
    await client.query('COMMIT');
  }
  return ms / events.length;
}

const database = await createScratchDatabase('bench_skew');
const pool = createPool({ connectionString: database.url, max: 2, applicationName: 'bench-skew' });
pool.on('error', () => undefined);
try {
  await pool.query('CREATE EXTENSION IF NOT EXISTS postgis');
  const schema = scratchSchemaName('bench_read');
  await ensureReadSchema(pool, { schema, projection: portalProjection });
  const client = await pool.connect();
  try {
    await client.query(`SET search_path TO "${schema}", public`);
    const loadStarted = performance.now();
    const { wide, small } = await loadTree(client, 8 * options.events);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const leafRows = await client.query<{ id: string; parent_id: string }>(
      `SELECT id, parent_id FROM portal_objects WHERE kind = 'collection' AND depth = 2 LIMIT $1`,
      [3 * options.events],
    );
    const parents = new Map<string, string>(leafRows.rows.map((row) => [row.id, row.parent_id]));
    const smallParents = await client.query<{ id: string; parent_id: string }>(
      `SELECT id, parent_id FROM portal_objects WHERE id = ANY($1)`,
      [small],
    );
    for (const row of smallParents.rows) parents.set(row.id, row.parent_id);
    const tree: Tree = { wide, small, parents, leaves: leafRows.rows.map((row) => row.id) };

    // Pass 1, timed. Pass 2, each plan logged to the client and searched for a table scan.
    const timed = eventsOfPass(tree, 0, options.events);
    const results: [string, number][] = [];
    for (const [kind, events] of timed) results.push([kind, await applyTimed(client, schema, events)]);
    const ceilingMs = await updateCeiling(client, schema, tree, tree.leaves.slice(2 * options.events));
    const logged = eventsOfPass(tree, 1, options.events);
    const plans: string[] = [];
    client.on('notice', (notice) => plans.push(notice.message ?? ''));
    await client.query(
      `LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
       SET auto_explain.log_level = notice; SET client_min_messages = notice`,
    );
    for (const events of logged.values()) await applyTimed(client, schema, events);
    // The whole of a wide catalog, below another one, then hidden: the statements that find its rows
    // through the index (its time includes its plan's logging).
    const [first, second] = wide;
    const wholeMove = recorded(`catalog-${first}`, first ?? '', 'PortalObjectMoved', {
      id: first,
      kind: 'catalog',
      fromParentId: null,
      toParentId: second,
    });
    const smallPlans = plans.length;
    const smallScans = plans.filter((plan) => /Seq Scan on portal_objects/.test(plan));
    const wholeMs = await applyTimed(client, schema, [wholeMove]);
    await applyTimed(client, schema, [
      recorded(`catalog-${first}`, first ?? '', 'VisibilityChanged', {
        id: first,
        kind: 'catalog',
        from: 'org',
        to: 'private',
      }),
    ]);
    const wideScans = plans.slice(smallPlans).filter((plan) => /Seq Scan on portal_objects/.test(plan));
    printTable(
      `Lone events on a skewed tree: ${options.children.toLocaleString('en-US')} collections below ${options.wide} ` +
        `root catalogs (loaded and analyzed in ${loadSeconds.toFixed(0)} s), each event in a batch of its own`,
      ['event', 'events', 'ms/event', '× single-row UPDATE'],
      [
        ['single-row UPDATE of a path (ceiling)', options.events, ceilingMs, 1],
        ...results.map(([kind, ms]) => [kind, options.events, ms, ms / ceilingMs] as const),
        ['move of a wide catalog', 1, wholeMs, wholeMs / ceilingMs],
      ],
    );
    process.stdout.write(
      `plans of the second pass (small objects): ${smallPlans}, reading portal_objects by a sequential scan: ` +
        `${smallScans.length}; of the wide catalog's move and visibility change: ${plans.length - smallPlans}, ` +
        `by a sequential scan: ${wideScans.length}\n`,
    );
    for (const scan of [...smallScans, ...wideScans]) {
      const query = /Query Text: (.*)/.exec(scan)?.[1] ?? '';
      const lines = scan.split('\n').filter((line) => line.includes('Seq Scan on portal_objects'));
      process.stdout.write(`${query.slice(0, 160)}\n${lines.join('\n')}\n`);
    }
    printJsonLine('skewed-subtrees', {
      options,
      loadSeconds,
      ceilingMs,
      msPerEvent: Object.fromEntries(results),
      wideMoveMs: wholeMs,
      plans: smallPlans,
      sequentialScans: smallScans.length,
      widePlans: plans.length - smallPlans,
      wideSequentialScans: wideScans.length,
    });
    if (smallScans.length > 0) process.exitCode = 1;
  } finally {
    client.release();
  }
} finally {
  await pool.end();
  await database.drop();
}
