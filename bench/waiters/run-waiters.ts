import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { formatPosition, parsePosition, type Position } from '@portal/domain';
import { createLogger } from '@portal/platform';
import { PORTAL_PROJECTION_CHANNEL as PROJECTION_CHANNEL } from '@portal/read-model-core';
import { ProjectionWaiter } from '../../apps/api/src/projection/projection-waiter.js';
import { summarize, type LatencySummary } from '../support/stats.js';
import type { WaiterOptions } from './waiter-options.js';

const CHECKPOINT_SCHEMA = new URL('../../libs/read-models/core/src/checkpoints/schema.sql', import.meta.url);
/** Long enough that no waiter times out on a loaded machine: a timeout would be counted, not hidden. */
const WAIT_TIMEOUT_MS = 60_000;

export interface WaiterRun {
  readonly waiters: number;
  readonly steps: number;
  readonly resolved: number;
  readonly timedOut: number;
  /** From the writer's COMMIT returning to the waiter's promise resolving. */
  readonly waiterMs: LatencySummary;
  /** The same for a bare LISTEN connection: the floor a waiter can reach. */
  readonly bareListenMs: LatencySummary;
  /** Queries the waiter's pool ran during the run (its periodic poll), whatever the number of waiters. */
  readonly waiterQueries: number;
  readonly runMs: number;
}

export async function prepareCheckpointTable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE SCHEMA IF NOT EXISTS read; SET search_path = read');
    await client.query(await readFile(CHECKPOINT_SCHEMA, 'utf8'));
    await client.query(
      `INSERT INTO projection_checkpoints (name, commit_position, prepare_position) VALUES ('portal', 0, 0)
       ON CONFLICT (name) DO UPDATE SET commit_position = 0, prepare_position = 0`,
    );
  } finally {
    await client.end();
  }
}

const positionOf = (step: number): Position => ({ commit: BigInt(step * 10), prepare: BigInt(step * 10) });

/**
 * `waiters` waits spread over `steps` checkpoint positions, then a writer advances the checkpoint the
 * way the projector commits a batch (the UPDATE and its notification in one transaction), one step
 * every `intervalMs`. Each waiter's latency is measured from the COMMIT that covered its position
 * (sent, so that the bare listener's figure can never come out negative).
 */
export async function runWaiters(url: string, waiters: number, options: WaiterOptions): Promise<WaiterRun> {
  await prepareCheckpointTable(url);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  let waiterQueries = 0;
  pool.on('acquire', () => {
    waiterQueries += 1;
  });
  const waiter = new ProjectionWaiter(pool, url, createLogger({ name: 'bench-waiters', level: 'warn' }));
  const bare = new pg.Client({ connectionString: url });
  const writer = new pg.Client({ connectionString: url });
  // A connection the server ends (another test's cleanup terminating backends) must not crash the bench:
  // an idle pooled one is dropped by the pool; a query on an ended client fails and says so.
  pool.on('error', () => undefined);
  bare.on('error', () => undefined);
  writer.on('error', () => undefined);
  try {
    await waiter.start();
    await Promise.all([bare.connect(), writer.connect()]);
    const bareReceived = new Map<string, number>();
    bare.on('notification', (message) => bareReceived.set(message.payload ?? '', performance.now()));
    await bare.query(`LISTEN ${PROJECTION_CHANNEL}`);

    const commitSentAt: number[] = [];
    const waits = Array.from({ length: waiters }, (_, index) => {
      const step = 1 + (index % options.steps);
      return waiter
        .waitFor(positionOf(step), WAIT_TIMEOUT_MS)
        .then((projected) => ({ step, projected, at: performance.now() }));
    });
    const queriesBefore = waiterQueries;
    const started = performance.now();
    for (let step = 1; step <= options.steps; step += 1) {
      const position = positionOf(step);
      await writer.query('BEGIN');
      await writer.query(
        `UPDATE read.projection_checkpoints SET commit_position = $1, prepare_position = $2 WHERE name = 'portal'`,
        [position.commit.toString(), position.prepare.toString()],
      );
      await writer.query('SELECT pg_notify($1, $2)', [PROJECTION_CHANNEL, formatPosition(position)]);
      // Latencies count from here, the commit included, for the waiter and the bare listener alike.
      commitSentAt[step] = performance.now();
      await writer.query('COMMIT');
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
    }
    const outcomes = await Promise.all(waits);
    const runMs = performance.now() - started;
    const latencies = outcomes
      .filter((outcome) => outcome.projected)
      .map((outcome) => outcome.at - (commitSentAt[outcome.step] ?? Number.NaN));
    const bareLatencies = [...bareReceived.entries()].map(([payload, at]) => {
      const step = Number(parsePosition(payload)?.commit ?? Number.NaN) / 10;
      return at - (commitSentAt[step] ?? Number.NaN);
    });
    return {
      waiters,
      steps: options.steps,
      resolved: latencies.length,
      timedOut: outcomes.length - latencies.length,
      waiterMs: summarize(latencies),
      bareListenMs: summarize(bareLatencies),
      waiterQueries: waiterQueries - queriesBefore,
      runMs,
    };
  } finally {
    await waiter.close();
    await Promise.all([bare.end(), writer.end()]);
    await pool.end();
  }
}
