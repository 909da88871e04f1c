import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applySchema, createPool, type Pool } from '@portal/platform';
import { webhookSchemaSql } from '../../api/src/webhooks/webhook-schema.js';
import { portalProjection } from '../../projector/src/portal-projection.js';
import { ensureReadSchema } from '../../projector/src/schemas.js';
import { TEST_DATABASE_URL } from '../../projector/test/support/test-database.js';
import { dispatchBatch, type DispatchDependencies } from '../src/webhooks/dispatch-batch.js';
import { deliveryJobId, WebhookQueue } from '../src/webhooks/webhook-queue.js';
import { captureLogger, testConfig } from './support/worker-test-context.js';
import { startDispatcher } from '../src/webhooks/dispatcher.js';

/**
 * The dispatcher against real PostgreSQL and Redis: a database of this file's own (the `webhooks` and
 * `read` schemas have fixed names) and a queue prefix of its own.
 */
const databaseName = `portal_wh_${randomBytes(4).toString('hex')}`;
const databaseUrl = (() => {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let pool: Pool;
let redis: Redis;
let queue: WebhookQueue;
const prefix = `test-wh-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  await admin(`CREATE DATABASE ${databaseName}`);
  pool = createPool({ connectionString: databaseUrl, max: 6, applicationName: 'webhook-dispatch-test' });
  await pool.query('CREATE EXTENSION IF NOT EXISTS postgis');
  await pool.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
  await ensureReadSchema(pool, { schema: 'read', projection: portalProjection });
  await applySchema(pool, 'webhooks', webhookSchemaSql);
  redis = new Redis(testConfig.REDIS_URL, { maxRetriesPerRequest: null });
  queue = new WebhookQueue(redis, prefix, { attempts: 3 });
});

afterAll(async () => {
  await queue.queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  redis.disconnect();
  await pool.end();
  await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
});

beforeEach(async () => {
  await pool.query('TRUNCATE read.audit_events, webhooks.endpoints, webhooks.dispatch_cursor');
  await queue.queue.obliterate({ force: true });
});

const orgA = randomUUID();
const orgB = randomUUID();
let nextPosition = 1;

async function auditRow(orgId: string, type: string, occurredAt: Date): Promise<string> {
  const eventId = randomUUID();
  nextPosition += 1;
  await pool.query(
    `INSERT INTO read.audit_events (event_id, position, stream_id, revision, type, org_id, occurred_at, data, metadata)
     VALUES ($1, $2, $3, 0, $4, $5, $6, '{"title":"x"}', '{}')`,
    [eventId, `${nextPosition}.${nextPosition}`, `org-${orgId}`, type, orgId, occurredAt],
  );
  return eventId;
}

async function endpoint(
  orgId: string,
  eventTypes: string[],
  createdAt: Date,
  enabled = true,
): Promise<string> {
  const id = randomUUID();
  await pool.query(
    `INSERT INTO webhooks.endpoints (id, org_id, url, event_types, secret, created_by, created_at, deliver_from,
                                     enabled)
     VALUES ($1, $2, 'https://hooks.example.org/', $3, 'whsec_x', $4, $5, $5, $6)`,
    [id, orgId, eventTypes, randomUUID(), createdAt, enabled],
  );
  return id;
}

async function queuedJobIds(): Promise<string[]> {
  const jobs = await queue.queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
  return jobs.map((job) => job.id ?? '').sort();
}

const deps = (batchSize = 500): DispatchDependencies => ({ pool, queue, readSchema: 'read', batchSize });

const t0 = new Date('2025-01-01T00:00:00Z');
const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('dispatchBatch', () => {
  it("enqueues one job per (endpoint, event) for matching endpoints of the event's organization only", async () => {
    const all = await endpoint(orgA, ['*'], t0);
    const catalogsOnly = await endpoint(orgA, ['CatalogCreated'], t0);
    await endpoint(orgA, ['*'], t0, false); // disabled: nothing
    await endpoint(orgB, ['MemberAdded'], t0);
    const created = await auditRow(orgA, 'CatalogCreated', later(1));
    const updated = await auditRow(orgA, 'PortalObjectUpdated', later(2));
    await auditRow(orgB, 'CatalogCreated', later(3)); // orgB's endpoint wants MemberAdded only

    const report = await dispatchBatch(deps());

    expect(report).toEqual({ rows: 3, jobs: 3, waiting: false });
    expect(await queuedJobIds()).toEqual(
      [deliveryJobId(all, created), deliveryJobId(all, updated), deliveryJobId(catalogsOnly, created)].sort(),
    );
    const job = await queue.queue.getJob(deliveryJobId(catalogsOnly, created));
    expect(job?.data).toMatchObject({
      webhookId: catalogsOnly,
      eventId: created,
      payload: { type: 'CatalogCreated', organizationId: orgA, data: { title: 'x' } },
    });
  });

  it('moves its cursor: a second pass enqueues nothing, a new row only its own jobs', async () => {
    const all = await endpoint(orgA, ['*'], t0);
    await auditRow(orgA, 'CatalogCreated', later(1));
    await dispatchBatch(deps());
    expect(await dispatchBatch(deps())).toEqual({ rows: 0, jobs: 0, waiting: false });
    const next = await auditRow(orgA, 'PortalObjectMoved', later(2));
    expect(await dispatchBatch(deps())).toEqual({ rows: 1, jobs: 1, waiting: false });
    expect(await queuedJobIds()).toContain(deliveryJobId(all, next));
    expect((await queuedJobIds()).length).toBe(2);
  });

  it('enqueues the same job ids again after a crash before the cursor moved: no duplicate deliveries', async () => {
    await endpoint(orgA, ['*'], t0);
    await auditRow(orgA, 'CatalogCreated', later(1));
    await auditRow(orgA, 'CatalogCreated', later(2));
    await dispatchBatch(deps());
    const before = await queuedJobIds();
    // What a crash between the enqueue and the cursor's commit leaves: the jobs, the old cursor.
    await pool.query('UPDATE webhooks.dispatch_cursor SET last_seq = 0, last_event_id = NULL');
    expect((await dispatchBatch(deps())).jobs).toBe(2);
    expect(await queuedJobIds()).toEqual(before);
    expect(await queue.queue.count()).toBe(2);
  });

  it('reads in batches, in order, and skips events from before the endpoint was registered', async () => {
    await auditRow(orgA, 'CatalogCreated', later(1));
    const webhook = await endpoint(orgA, ['*'], later(2));
    const events = [];
    for (let i = 3; i < 8; i += 1) events.push(await auditRow(orgA, 'PortalObjectUpdated', later(i)));
    const reports = [];
    for (let pass = 0; pass < 4; pass += 1) reports.push(await dispatchBatch(deps(2)));
    expect(reports.map((report) => report.rows)).toEqual([2, 2, 2, 0]);
    expect(await queuedJobIds()).toEqual(events.map((eventId) => deliveryJobId(webhook, eventId)).sort());
  });

  it('finds its place again by event id after a rebuild renumbered seq, and waits while the row is gone', async () => {
    await endpoint(orgA, ['*'], t0);
    const first = await auditRow(orgA, 'CatalogCreated', later(1));
    await dispatchBatch(deps());
    const cursor = await pool.query<{ last_seq: string }>('SELECT last_seq FROM webhooks.dispatch_cursor');
    expect(Number(cursor.rows[0]?.last_seq)).toBeGreaterThan(2);
    // A rebuild numbers the rows from 1 again: the cursor's seq now lies past rows it has not read.
    await pool.query('UPDATE read.audit_events SET seq = 1 WHERE event_id = $1', [first]);
    const fresh = await auditRow(orgA, 'PortalObjectUpdated', later(2));
    await pool.query('UPDATE read.audit_events SET seq = 2 WHERE event_id = $1', [fresh]);
    const report = await dispatchBatch(deps());
    expect(report).toEqual({ rows: 1, jobs: 1, waiting: false });
    expect((await queuedJobIds()).length).toBe(2);
    await pool.query('DELETE FROM read.audit_events WHERE event_id = ANY($1)', [[first, fresh]]);
    expect(await dispatchBatch(deps())).toEqual({ rows: 0, jobs: 0, waiting: true });
  });
});

describe('startDispatcher', () => {
  it('has one active dispatcher among several; a standby takes over when it stops', async () => {
    const webhook = await endpoint(orgA, ['*'], t0);
    const { logger, lines } = captureLogger('dispatcher-test');
    const settings = { intervalMs: 100 };
    const first = startDispatcher({ ...deps(), logger }, settings);
    const second = startDispatcher({ ...deps(), logger }, settings);
    await Promise.all([first.wake(), second.wake()]);
    const active = () => lines.filter((line) => line.includes('webhook dispatcher active')).length;
    expect(active()).toBe(1);
    const eventId = await auditRow(orgA, 'CatalogCreated', later(1));
    await first.wake();
    await second.wake();
    expect(await queuedJobIds()).toEqual([deliveryJobId(webhook, eventId)]);
    await first.close();
    await second.close();
    const third = startDispatcher({ ...deps(), logger }, settings);
    await third.wake();
    expect(active()).toBe(2);
    await third.close();
  });
});
