/**
 * How soon a standby projector leads once the leader dies (every connection of the leader terminated
 * from the server side, its pool closed), and until an event appended at that moment is projected: the
 * figures behind the leadership int test, which checks only that the takeover happens. Runs in `prj_*`
 * schemas of the test database (`TEST_DATABASE_URL`), dropped after each failover.
 * Usage: npx tsx bench/projector-failover.ts [--failovers 5] [--standby-retry-ms 1000]
 */
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { catalogCreated, streamOf, toAppend } from '../apps/projector/test/support/portal-events.js';
import {
  openFixture,
  startProjector,
  waitUntilCaughtUp,
  type ProjectorFixture,
  type RunningProjector,
} from '../apps/projector/test/support/projector-fixture.js';
import { openTestPool } from '../apps/projector/test/support/test-database.js';
import { waitFor } from '../apps/projector/test/support/wait-for.js';
import { positiveInt, readOptions } from './support/options.js';
import { useTestServiceDefaults } from './support/services.js';
import { summarize } from './support/stats.js';
import { printJsonLine, printTable } from './support/table.js';

const raw = readOptions('npx tsx bench/projector-failover.ts [options]', {
  failovers: { env: 'BENCH_FAILOVERS', default: '5', help: 'leaders killed, one fresh pair each' },
  'standby-retry-ms': {
    env: 'BENCH_STANDBY_RETRY_MS',
    default: '1000',
    help: "the standby's lock retry interval (the projector's default)",
  },
});
const failovers = positiveInt('failovers', raw.failovers);
const standbyRetryMs = positiveInt('standby-retry-ms', raw['standby-retry-ms']);
useTestServiceDefaults();

const leads = 'leader: holding the projection lock';
const standsBy = 'standby: another projector holds the lock';

async function appendCatalog(fixture: ProjectorFixture, title: string): Promise<void> {
  const event = catalogCreated({ title });
  await fixture.store.append(streamOf(event), [toAppend(event)], { expectedRevision: 'no_stream' });
}

/** One leader, one standby, the leader killed: milliseconds until the standby leads and has projected. */
async function failover(): Promise<{ leadMs: number; projectedMs: number }> {
  const fixture = await openFixture('failover-bench');
  const name = (who: string) => `failover-${who}-${randomBytes(4).toString('hex')}`;
  const [aName, bName] = [name('a'), name('b')];
  const [a, b] = [openTestPool(aName, 4), openTestPool(bName, 4)];
  const options = { standbyRetryMs, retryDelaysMs: [100, 400, 1600] };
  const leader = startProjector(fixture, { ...options, name: 'a', pool: a });
  // The standby starts once a leads: started together, either may take the lock first.
  let standby: RunningProjector | undefined;
  try {
    await waitFor('a to lead', () => Promise.resolve(leader.logs.messages().includes(leads)));
    const started = startProjector(fixture, { ...options, name: 'b', pool: b });
    standby = started;
    await waitFor('b to stand by', () => Promise.resolve(started.logs.messages().includes(standsBy)));
    await appendCatalog(fixture, 'while a leads');
    await waitUntilCaughtUp(fixture);
    // A leader dies at any moment of the standby's retry cycle, not right after its first try.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * standbyRetryMs));

    const diedAt = performance.now();
    const aEnded = a.end();
    await fixture.pool.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [aName],
    );
    await appendCatalog(fixture, 'after a died');
    await waitFor('b to lead', () => Promise.resolve(started.logs.messages().includes(leads)), {
      timeoutMs: 120_000,
      intervalMs: 5,
    });
    const leadMs = performance.now() - diedAt;
    await waitUntilCaughtUp(fixture, { timeoutMs: 120_000 });
    const projectedMs = performance.now() - diedAt;
    await aEnded;
    return { leadMs, projectedMs };
  } finally {
    await standby?.stop();
    await leader.stop();
    await b.end();
    await fixture.close();
  }
}

const runs: { leadMs: number; projectedMs: number }[] = [];
for (let n = 1; n <= failovers; n += 1) {
  runs.push(await failover());
  process.stderr.write(`failover ${n}/${failovers} done\n`);
}
const lead = summarize(runs.map((run) => run.leadMs));
const projected = summarize(runs.map((run) => run.projectedMs));
printTable(
  `Projector failover (${failovers} runs, standby retry ${standbyRetryMs} ms): ms from the leader's death`,
  ['until', 'p50', 'max'],
  [
    ['the standby leads', lead.p50, lead.max],
    ['an event appended then is projected', projected.p50, projected.max],
  ],
);
printJsonLine('projector-failover', { options: { failovers, standbyRetryMs }, runs, lead, projected });
