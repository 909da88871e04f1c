import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { comparePositions, formatPosition, parsePosition, START, type Position } from '@portal/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advisoryLockKey } from '../src/advisory-lock-key.js';
import { withClient, type PoolClient } from '@portal/platform';
import { portalProjection } from '../src/portal-projection.js';
import { leadershipName } from '../src/run-projector.js';
import { rebuildReadSchema } from '../src/rebuild/rebuild-read-schema.js';
import { dumpPortalObjects } from './support/dump.js';
import {
  checkpointOf,
  openFixture,
  waitUntilCaughtUp,
  type ProjectorFixture,
} from './support/projector-fixture.js';
import { startWriter } from './support/background-writer.js';
import { dumpReadSchema } from './support/read-schema-dump.js';
import { PortalScenario } from './support/scenario.js';
import { dropSchemas, TEST_DATABASE_URL, uniqueSchema } from './support/test-database.js';
import { captureLogger } from './support/test-logger.js';
import { waitFor } from './support/wait-for.js';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
let fixture: ProjectorFixture;
const children: ChildProcess[] = [];
const extraSchemas: string[] = [];

beforeEach(async () => {
  fixture = await openFixture('crash');
});

afterEach(async () => {
  // Never leave a projector behind: its whole process group goes, whatever npx did.
  for (const child of children.splice(0)) if (groupAlive(child)) signalGroup(child, 'SIGKILL');
  await dropSchemas(fixture.pool, extraSchemas.splice(0));
  await fixture.close();
});

interface ProjectorProcess {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Settles when every process holding the output pipes (npm, tsx, node) has gone. */
  readonly closed: Promise<unknown>;
}

/** The projector as operators run it, in its own process group so a kill reaches npx, tsx and node alike. */
function spawnProjector(): ProjectorProcess {
  const child = spawn('npx', ['tsx', 'apps/projector/src/main.ts'], {
    cwd: repositoryRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: TEST_DATABASE_URL,
      PROJECTOR_BATCH_SIZE: '5',
      // Two projectors run at once here: let each take a free metrics port.
      PROJECTOR_METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      EVENTSTORE_SCHEMA: fixture.eventsSchema,
      PROJECTOR_READ_SCHEMA: fixture.readSchema,
      PROJECTOR_OPERATIONS_SCHEMA: fixture.operationsSchema,
    },
  });
  children.push(child);
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  return { child, output: () => output, exited, closed: once(child, 'close') };
}

/** The position in the first "subscribing from checkpoint" line of a projector's JSON log. */
function subscribedFrom(output: string): string | undefined {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: string; position?: string };
    if (entry.msg === 'subscribing from checkpoint') return entry.position;
  }
  return undefined;
}

/** Whether another instance could lead now: the stopped projector released its session lock. */
async function lockIsFree(): Promise<boolean> {
  const key = advisoryLockKey(leadershipName(portalProjection.name, fixture.readSchema));
  return withClient(fixture.pool, async (client) => {
    const result = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
      key.namespace,
      key.id,
    ]);
    await client.query('SELECT pg_advisory_unlock($1, $2)', [key.namespace, key.id]);
    return result.rows[0]?.locked === true;
  });
}

/** Zombies count too (orphans may wait long to be reaped here), so this is for cleanup, not assertions. */
function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) throw new Error('child has no pid');
  process.kill(-child.pid, signal);
}

/**
 * Holds back every write to the audit trail: a batch writes its object rows first and its audit rows
 * last (the audit read model reads the rows the others wrote), so the projector's next batch stops
 * halfway, its transaction open with rows written and the checkpoint row locked.
 */
async function holdAuditWrites(client: PoolClient): Promise<void> {
  await client.query('BEGIN');
  // EXCLUSIVE lets readers through and stops every INSERT.
  await client.query(`LOCK TABLE "${fixture.readSchema}".audit_events IN EXCLUSIVE MODE`);
}

/**
 * The backend of a batch stopped halfway: it waits for the audit trail, has written object rows and
 * holds the checkpoint row (`FOR UPDATE`) in the same transaction.
 */
async function halfwayBatch(): Promise<number | undefined> {
  const table = (name: string) => `'"${fixture.readSchema}".${name}'::regclass`;
  const result = await fixture.pool.query<{ pid: number }>(
    `SELECT waiting.pid FROM pg_locks waiting
       JOIN pg_locks written ON written.pid = waiting.pid AND written.granted
        AND written.relation = ${table('portal_objects')} AND written.mode = 'RowExclusiveLock'
       JOIN pg_locks checkpoint ON checkpoint.pid = waiting.pid AND checkpoint.granted
        AND checkpoint.relation = ${table('projection_checkpoints')} AND checkpoint.mode = 'RowShareLock'
      WHERE waiting.relation = ${table('audit_events')} AND NOT waiting.granted`,
  );
  return result.rows[0]?.pid;
}

async function backendGone(pid: number): Promise<boolean> {
  const result = await fixture.pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
  return result.rowCount === 0;
}

describe('crash safety', () => {
  it('a projector killed with SIGKILL mid-batch and restarted leaves read models equal to a clean rebuild, row for row', async () => {
    const scenario = new PortalScenario(31337, { items: true });
    await scenario.appendTo(fixture.store, 400);
    const writer = startWriter(scenario, fixture.store);

    try {
      const first = spawnProjector();
      // Let it get properly under way, then stop its next batch halfway and kill it there, without
      // warning, while events still flow.
      await waitFor(
        'the first projector to apply some batches',
        async () =>
          comparePositions(await checkpointOf(fixture), START) > 0 &&
          (await dumpPortalObjects(fixture.pool, fixture.readSchema)).length > 30,
        { timeoutMs: 60_000 },
      );
      const holder = await fixture.pool.connect();
      let atKill: Position = START;
      try {
        await holdAuditWrites(holder);
        const batchPid = await waitFor('a batch stopped halfway', halfwayBatch, { timeoutMs: 60_000 });
        atKill = await checkpointOf(fixture);
        signalGroup(first.child, 'SIGKILL');
        expect((await first.exited).signal).toBe('SIGKILL');
        // Let the dead projector's backend go on: it finds its client gone and rolls the batch back.
        await holder.query('ROLLBACK');
        await waitFor('the killed batch to end', () => backendGone(batchPid), { timeoutMs: 60_000 });
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        holder.release();
      }
      // Nothing of the half-made batch was committed: the checkpoint is where the last whole batch left it.
      expect(formatPosition(await checkpointOf(fixture))).toBe(formatPosition(atKill));
      expect(comparePositions(atKill, fixture.store.lastAppended)).toBeLessThan(0);

      const second = spawnProjector();
      await waitFor(
        'the restarted projector to lead',
        () => Promise.resolve(second.output().includes('leader: holding the projection lock')),
        { timeoutMs: 60_000 },
      );
      await writer.stop();
      await waitUntilCaughtUp(fixture, { timeoutMs: 90_000 });

      // SIGTERM to the whole group, as a terminal's Ctrl-C or a process supervisor does: npm exec dies
      // without passing a signal on, tsx passes it on only when the projector did not get it already.
      signalGroup(second.child, 'SIGTERM');
      // Every process of the group has exited once the output pipes close.
      await second.closed;
      expect(await lockIsFree()).toBe(true);
      expect(second.output()).toContain('stopping after the current batch');
      expect(second.output()).toContain('released the projection lock');
      expect(second.output()).toContain('projector stopped');
      expect(second.output()).not.toContain('second signal');
      // It resumed from the committed checkpoint (a commit in flight at the kill may have moved it on).
      const resumedFrom = parsePosition(subscribedFrom(second.output()) ?? '');
      expect(resumedFrom).not.toBeNull();
      expect(comparePositions(resumedFrom ?? START, atKill)).toBeGreaterThanOrEqual(0);
      expect(comparePositions(resumedFrom ?? START, START)).toBeGreaterThan(0);
    } finally {
      await writer.stop();
    }

    const clean = uniqueSchema('prj_clean');
    extraSchemas.push(clean);
    await rebuildReadSchema({
      pool: fixture.pool,
      store: fixture.store,
      projection: portalProjection,
      schema: clean,
      notifyChannel: fixture.channel,
      batchSize: 200,
      log: captureLogger('clean').logger,
    });
    // Every read-model table, row for row (the audit trail in its order), against the clean rebuild.
    const projected = await dumpReadSchema(fixture.pool, fixture.readSchema);
    expect(projected.portal_objects?.length).toBeGreaterThan(400 * 0.3);
    expect(projected.uploads?.length).toBeGreaterThan(0);
    expect(projected.audit_events?.length).toBeGreaterThan(400);
    expect(projected).toEqual(await dumpReadSchema(fixture.pool, clean));
    const letters = await fixture.pool.query(`SELECT 1 FROM "${fixture.operationsSchema}".dead_letters`);
    expect(letters.rowCount).toBe(0);
    // Two projector processes over a 400-event portal with uploads while a writer keeps appending, then a
    // clean rebuild: ~57 s on the shared 2-core CI machine (its projector manages ~280 events/s there),
    // so the default 60 s is too tight.
  }, 180_000);
});
